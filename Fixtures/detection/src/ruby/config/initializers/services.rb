Stripe.api_key = 'sk_live_WkGlsoLap5HjcakQTLaxY4aY'
Rails.application.config.secret_key_base = 'e6c9e069dcb2bf6108565995d85c25ca98d76d74952236af2d9ce5f2754f3de5bf7bec7e5eb8251feb9d8c66f94da8639d50b2bf0271bb137a256657d2084ee1'
Twilio.configure { |c| c.account_sid = 'ACfe6f80fe9e760a946373cee5f514f962'; c.auth_token = 'f55fbe541d1a8fa73532ad659259b62e' }
Sidekiq::Pro.license = '83989c99:13939190'
config.api_key = 'd0XZaxPWNEILJwf2DeN0xeoZdFHwBZwR'
ENV['SMTP_PASSWORD'] ||= 'pnLFrkx-mcqva4SQ5yj5'
client = Octokit::Client.new(access_token: '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')
{ password: '7HtaOU8.F6eqdABPGA64', username: 'deploy' }
SENTRY_TOKEN = ENV.fetch("SENTRY_TOKEN") { "0BGNrGHIjAYMIUuoMPKhCt62fgPs4jXY" }
