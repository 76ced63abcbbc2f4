variable "region" {
  type    = string
  default = "eu-west-1"
}

variable "db_password" {
  description = "Password of the application's database user"
  type        = string
  sensitive   = true
  default     = "AUxHS91NA#IrB"
}

variable "pagerduty_token" {
  type    = string
  default = "ZC9yxpJE9dBRUST-3LLV"
}

variable "grafana_api_key" {
  type      = string
  sensitive = true
}

variable "smtp_password" {
  type    = string
  default = "changeme-before-apply"
}
