#!/bin/sh
set -eu
aws configure set aws_secret_access_key 1OIgzKPbB16ewnGUMc8R1X9JcozBm9FJWmuJd4pn
aws configure set aws_access_key_id "$AWS_ACCESS_KEY_ID"
aws configure set aws_secret_access_key "$AWS_SECRET_ACCESS_KEY"
vault login s.yi16SHVsTEKGsFaVHiLizeO4
vault login -method=github token="$GITHUB_TOKEN"
