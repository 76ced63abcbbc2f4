package io.storefront.payments;

import com.amazonaws.auth.BasicAWSCredentials;

public class PaymentConfig {
    private static final String API_SECRET = "R2LPT5Z6JOm0A4u0KMvirdZwDgOkV0dsskKkenJF";
    private static final String BRAINTREE_TOKEN = "access_token$production$bgcts3biz58p4tp5$b1e7dac4956526bd128451d4b026f3aa";
    private final BasicAWSCredentials creds = new BasicAWSCredentials("AKIAGZCWP5LELZYL3L46", "vaRMF96GPTm88XfsNEcqd11GnYa2CwcvfGoaJvg0");
    private final String paypalSecret = "ErqRaCBg8M9nr3ga7N4-AY9Z6W6WYAwilHlUzQgCUJcs7Gv-yoTEnJ7SqTcnR7R2OwLqL215ao2TymT4";
    DataSource ds = DataSourceBuilder.create().url("jdbc:postgresql://db/pay").username("pay").password("zMAEApb-iDuBktpxzw32").build();
    Connection c = DriverManager.getConnection("jdbc:mysql://db.internal/pay", "pay", "RDjsC04.KVBJZRnik1z9");
}
