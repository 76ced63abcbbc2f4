package providers

var mistralAPIKey string = "8YxsoKSR6GlCfBMnoOUYUn61NTo4MhTo"
const algoliaAdminKey string = "760c3fe238b5251b9abbcd0dd4ab232c"

var (
	herokuAPIKey string = "9e1220a4-e8b1-fd67-27b6-c35edd75fd20"
	nugetAPIKey  string = "f9e13cb9-9772-02ac-f47e-c1bd69e25203"
	mailgunAPIKey string = "4e482ba1c58dfd5e8441af7ee9bead80-9517c9b8-d30e7484"
)

type Config struct {
	DatadogAPIKey string `json:"datadog_api_key"`
	SumoAccessKey string `json:"sumo_access_key"`
}
