<?php
return [
    'db_password' => 'Tz9m0PM_6U0Ji5TV7sp0',
    'redis_password' => env('REDIS_PASSWORD', 'C2758DJ-Ka0KNvGQqxM6'),
    'mail_password' => env('MAIL_PASSWORD'),
    'stripe_secret' => 'sk_live_Pw85nM8Moc4w9YgAAO2ZGGzD',
];
define('AUTH_KEY', 'v%(ay26Zg0]sB{&O>A=lim^l4FD%wzjjS`Ip=](Lt4,J]|_Zz%7Dh)nR}*Fn_I2v');
$apiToken = '9SFuAjNNonQ78ZBEYE1KB7U9hBCdQhlaltQLRV28';
$pdo = new PDO('mysql:host=db.internal;dbname=shop', 'shop', 'mXWRDOH.oTla4ufzCpN7');
$db_pass = 'ciL9EFTUY0uDMuI';
