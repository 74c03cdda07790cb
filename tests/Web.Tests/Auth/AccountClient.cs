using System.Net;
using System.Text.RegularExpressions;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Auth;

/// <summary>A cookie-keeping client without credentials that fills the account pages' forms as a browser does (antiforgery token included).</summary>
internal sealed partial class AccountClient : IDisposable
{
    public AccountClient(WebApp app)
    {
        Client = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false, CookieContainer = new CookieContainer() })
        {
            BaseAddress = app.BaseAddress,
            Timeout = TimeSpan.FromSeconds(60),
        };
    }

    /// <summary>The client (its cookies are the browser's).</summary>
    public HttpClient Client { get; }

    /// <summary>GETs <paramref name="page"/>, takes its antiforgery token, and posts <paramref name="fields"/> to <paramref name="action"/>.</summary>
    public async Task<HttpResponseMessage> PostFormAsync(string page, string action, Dictionary<string, string> fields)
    {
        var html = await Client.GetStringAsync(page);
        var match = AntiforgeryRegex().Match(html);
        Assert.True(match.Success, $"no antiforgery token on {page}");
        fields["__RequestVerificationToken"] = WebUtility.HtmlDecode(match.Groups[1].Value);
        return await Client.PostAsync(action, new FormUrlEncodedContent(fields));
    }

    /// <inheritdoc />
    public void Dispose() => Client.Dispose();

    [GeneratedRegex("name=\"__RequestVerificationToken\" value=\"([^\"]+)\"")]
    private static partial Regex AntiforgeryRegex();
}
