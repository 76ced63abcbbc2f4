export const config = {
  clientSecret: 'OWixCx9s46zWcs1URLcunFf1vKjrttBSKJQpU2vU',
  auth0ClientSecret: 'hbNcmWwXcnKrze73jFQ6L2eA3MtvEM5BE0WTIEqeImUQPwTtzzihikEZ3InTqKqS',
  supabaseKey: 'eyJhbGciOiAiSFMyNTYiLCAidHlwIjogIkpXVCJ9.eyJpc3MiOiAic3VwYWJhc2UiLCAicmVmIjogImV6enRmaHl2bGR4ZmNyZ2diempuIiwgInJvbGUiOiAic2VydmljZV9yb2xlIiwgImlhdCI6IDE3MDAwMDAwMDAsICJleHAiOiAyMDE1MDAwMDAwfQ.eUNHgTmF6D1E9iWNZAi5kt5WAYcuBiWeoIv0W6_jFaM',
};
export class PaymentsClient {
  private readonly secret: string = 'TracNilsUfKBfzbbaNPd9TI1KryXwqVc8VNy2LH5';
  private readonly publishableKey = 'pk_live_' + 'x'.repeat(24);
}
