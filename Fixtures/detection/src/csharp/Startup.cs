using SendGrid;
using System.Net;

public class Startup
{
    private const string ClientSecret = "L23k5EaltgU0SjqYg1xkvdWd15D9RNLuyCXhOKdj";
    var client = new SendGridClient("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");
    var creds = new NetworkCredential("smtp-user", "sR3Q7e8-qKkuDloUslm2");
    var fromConfig = new NetworkCredential(config["Smtp:User"], config["Smtp:Password"]);
    string conn = "Host=db.internal;Username=app;Password=4QU4xAa.dfVoaWiL6qm1;Database=shop";
    var blob = new BlobServiceClient("DefaultEndpointsProtocol=https;AccountName=shop;AccountKey=1v+08z10lc7YdT23SkOFfDLfUUhuYva0ZXM4PFreeGL6yqvIz0n4Co1cLRYQizVOjm96TKdJzJL4eWLTIN/pqw==;EndpointSuffix=core.windows.net");
}
