"""Django settings for the storefront project."""
import os
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent

SECRET_KEY = 'jpjomkefoiuc3l%*gtk8#9&v#9=qz3%@@g6x92b==rtl1cz%vl'

DEBUG = False
ALLOWED_HOSTS = ['shop.internal', 'localhost']

DATABASES = {
    'default': {
        'ENGINE': 'django.db.backends.postgresql',
        'NAME': 'storefront',
        'USER': 'storefront_app',
        'PASSWORD': 'tFhjG9y_O7uRQz3lnGl4Q6',
        'HOST': 'db.internal',
        'PORT': '5432',
    },
    'replica': {
        'ENGINE': 'django.db.backends.postgresql',
        'PASSWORD': os.environ.get('REPLICA_DB_PASSWORD', ''),
    }
}

EMAIL_HOST_PASSWORD = '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'
AWS_ACCESS_KEY_ID = 'AKIASFOXCQBSTWYJQQ7D'
AWS_SECRET_ACCESS_KEY = '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'
STRIPE_SECRET_KEY = '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'
STRIPE_WEBHOOK_SECRET = 'whsec_riRfmoRiJOM2ytq3aEGQ21Zz3uI1r8NA'
STRIPE_PUBLISHABLE_KEY = os.environ['STRIPE_PUBLISHABLE_KEY']
CELERY_BROKER_URL = 'amqp://celery:C0CGMWT-GdB3zzDOr0@rabbitmq.internal:5672/storefront'
CACHES = {'default': {'BACKEND': 'django_redis.cache.RedisCache', 'LOCATION': 'redis://:FiM9ul4_OW0x33PlJ51GGvV1@cache.internal:6379/1'}}
SOCIAL_AUTH_GITHUB_SECRET = 'cf5360ba92dee64544f9664a371e5048e7d8f4f5'
SOCIAL_AUTH_GOOGLE_OAUTH2_SECRET = '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'
SENDGRID_API_KEY = 'SG.xxxxxxxxxxxxxxxxxxxxxx.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'
MAILGUN_API_KEY = 'key-your-mailgun-key-here'
MAILGUN_API_KEY_LIVE = 'key-7c17988120875edcb0c450e17472dc93'
TWILIO_ACCOUNT_SID = 'AC0f7ccff44c3698e3feb947e0fa5f9b3e'
TWILIO_AUTH_TOKEN = '236a3305ae95cdff4fbccfe78db0dd92'
ALGOLIA_ADMIN_API_KEY = '2e863a072bfcc6ce7fbbd5273656f0f1'
RECAPTCHA_PRIVATE_KEY = '6LO3mvRFbzupZJn48DPn5UcxeX1auGRyvr2GhlSh'
SENTRY_DSN = os.getenv('SENTRY_DSN')
GOOGLE_MAPS_API_KEY = os.environ.get('GOOGLE_MAPS_API_KEY', 'GdGgRHKcPzQx12FWQ5vRB24dT6UtX3K7')
SLACK_CLIENT_SECRET = os.getenv('SLACK_CLIENT_SECRET', '59a5357de84426de6f1cc81e4129f56ehiQ7')
SENDGRID_KEY = os.environ.get('SENDGRID_KEY', 'changeme')

if os.environ.get("DJANGO_DEBUG") == "1":
    SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "django-insecure-r14u9n#4_oon9v9g)46(cf4=j7uno!^ze-iqc6)oq!%f5p$())")
