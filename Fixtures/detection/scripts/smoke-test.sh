#!/bin/sh
# Smoke test against the staging gateway
set -eu
curl -fsS -H "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJzdmMtNyJ9.6f9J3b2AyKGsBdRsXojWDit4vqbBmkXmo_TNiDCAyZg" \
  https://gateway.staging.internal/v1/health
curl -fsS -H "Authorization: Bearer $SMOKE_TOKEN" https://gateway.staging.internal/v1/ready
