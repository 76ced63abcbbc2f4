package client

import (
	"net/http"
	"github.com/stripe/stripe-go/v76"
)

const stripeKey = "sk_live_ZCyezO1QT0ZWuFe6Q64cpOgL"
var apiToken = "9qMHQ8KiOCUe2zE9xm1owNchrXtAulDK619yalKx"
var webhookSecret string = "0PIZZC9QgWF7Aduqkp8DPLBQ2olUsrHA"

func New() *Client {
	stripe.Key = stripeKey
	dbPassword := "2gLDTWT-F4A6kav5sgz2"
	return &Client{Token: "lcHWTnwR7h7xbn6NcPqL4fp7lnpKKmv784mzyXap", BaseURL: "https://api.internal.io"}
}

func auth(r *http.Request) {
	r.Header.Set("Authorization", "Bearer NqAkpqUsgVyD0VVuitVDv283XMyRLz4d7wMT5EFF")
	r.SetBasicAuth("deploy", "TJkNvnD-30CtrdAUrdf0")
}
