terraform {
  required_version = ">= 1.5"
}

provider "aws" {
  region     = "eu-west-1"
  access_key = "AKIAVJ5OKRIHE275UK3K"
  secret_key = "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"
}

provider "digitalocean" {
  token = "dop_v1_8afbf23c1ed4346aebad4aa73311c887df774f3f07e2f6a272d6803d6deec231"
}

provider "cloudflare" {
  api_token = "DxS3aQHbOzg7GCi2DYpk6iMsUWKR5J8TIlpc7SP_"
}

provider "github" {
  owner = "storefront"
  token = "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"
}

provider "datadog" {
  api_key = "b892cd297064dd1134cf8adc5e633c2e"
  app_key = "186c55a6d2eea7d599e4d3e3bfedff884ca70599"
}

provider "azurerm" {
  features {}
  tenant_id       = "c0098799-70f8-4780-9a96-7cd3997f4ef9"
  client_id       = "ae7682b4-4e53-4272-91ef-e2102ede2e53"
  client_secret   = "ojm8Q~Kjvk3RZad~fX5fc~g1_0XAtr-hA8gc9ZjP"
}

provider "hcloud" {
  token = "bOVGcDwCX2Pu50FNgKR8DlJiL2W4v8GzSddpANyzdxCfv6jEDI9EkDSVwJ2b1bxp"
}

provider "linode" {
  token = "a9d875af453d32d65f3d692cffcca18b413337d3d6ca9f4cf036926126854684"
}

provider "vultr" {
  api_key = "EKJ7B15ZTW4IFKYZIVCIRGSSLYG9SBPPS0YN"
}

provider "scaleway" {
  access_key = "SCWM2CHLLVSAPNLJ0YQL"
  secret_key = "7d778471-5686-4e43-8b6c-79479f55a38e"
}

provider "newrelic" {
  account_id = 3141592
  api_key    = "NRAK-ZOP6P8SWWXXH1MMZN58RJ5EUXNO"
}

provider "heroku" {
  email   = "ops@storefront.io"
  api_key = "267ba622-b9c4-4843-a96b-d2ff1dc60d90"
}

provider "tfe" {
  token = "4khGmbHY5IJl9H.atlasv1.LJGXxQ3JQ7Rai-UJQ1cpxKTU5wxLW1fITeqkfa485kB7WEJ8Zosze4bv-prq9Ebs4n1"
}

provider "vault" {
  address = "https://vault.internal.io:8200"
  token   = "hvs.Qlnr0rCGBmHCdM50cVUJZDnT"
}

provider "mongodbatlas" {
  public_key  = "rdqjdpxo"
  private_key = "e3769e34-e83c-43d0-b7ce-35b7e8ba3a40"
}

provider "okta" {
  org_name = "storefront"
  base_url = "okta.com"
  api_token = "00IQIqqCQzkOl_HsPeQFdG6E6BIQ0R91HwnBWtoKVH"
}

provider "alicloud" {
  access_key = "LTAIX0EbOhzc41tfshaC0aES"
  secret_key = "zbRv8kkQ7AIfzRCAGceL6TPTHG5m73"
}

provider "tencentcloud" {
  secret_id  = "AKIDKZip5jFr8RZ6WqESOv3sPJFoqRQricl7"
  secret_key = "XM2XeccK9eRjopkfCyIO3AMtIVsjOQBU"
}

provider "gitlab" {
  token = "glpat-scKVKawhQxvCMwwbcNgr"
}

provider "databricks" {
  host  = "https://adb-1234567890123456.7.azuredatabricks.net"
  token = "dapia95f87a14bacd8482d9246d0bb50562f"
}

provider "grafana" {
  url  = "https://storefront.grafana.net"
  auth = "glsa_TFRggW6UACzG25fWyzedULBI9zm324Wt_23dab629"
}

provider "sentry" {
  token = "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"
}

provider "launchdarkly" {
  access_token = "api-f604c94d-5fc5-476f-bcde-f911eb37fd2b"
}

provider "pagerduty" {
  token = "u+FCr5lDTxl_MOOBOdO0"
}

provider "exoscale" {
  key    = "EXOfb90439403b6e3150e5e9b0b"
  secret = "aSXcqfDWY-Kc9qDFBtwuvZv1X5Li4jyJuY43FCtVvR8"
}

provider "ibm" {
  ibmcloud_api_key = "nNwXWF0sEx_XMo1juppfcBh2fvc1NC2-GxSidwXYP4fQ"
}

provider "confluent" {
  cloud_api_key    = "WBF778A4FHAM8O2N"
  cloud_api_secret = "q8GR65VNwLMNd2i5YtiNaNrlM1262jXxDRs46oMSQC9Jhj3c8dXJdwbhMWKyqRRl"
}

provider "checkly" {
  api_key = "cu_bf7e7dce80245042cbbf2e5bf62d64f5"
}

provider "ovh" {
  endpoint           = "ovh-eu"
  application_key    = "NPSwbJYpFgqGQ3F4"
  application_secret = "JoFppJMxcZ2WMD38e8hllsIBEbC6wDic"
  consumer_key       = "S35J3dl7B6LVmGJIX7R8jwG4GE8pY2Ci"
}

provider "civo" {
  token = "Bl8zA6qlBdboYNBsG7alg2SFslrXCufLz6qstRTOyiYBmcwUPz"
}

provider "yandex" {
  token = "y0_GK1m4rCmkdl2LaHipnJBKnoy5koicH9moK3UOOl4C-_3D5pU4nLvOIJ"
}

variable "db_password" {
  type      = string
  sensitive = true
  default   = ""
}

resource "aws_db_instance" "main" {
  engine   = "postgres"
  username = "storefront"
  password = "BNWmHtW.PNJHG9jg1whUFUA4"
}

resource "random_password" "x" {
  length = 32
}
resource "aws_iam_access_key" "ci" { user = "ci" }
