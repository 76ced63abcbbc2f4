import ftplib
import smtplib

import requests


def notify(message):
    requests.post('https://alerts.internal.io/v1/events', json=message, auth=('alerts', 'pDX21lg_xVnTjyVF78'))
    with smtplib.SMTP_SSL('smtp.internal.io', 465) as server:
        server.login('alerts@storefront.io', 'EsxV4q5_2hMN236zv5')
        server.send_message(message)
    ftp = ftplib.FTP('files.internal.io')
    ftp.login('deploy', '86KNCTy-KbcdpkF0')
    ftp.login(user, password)
