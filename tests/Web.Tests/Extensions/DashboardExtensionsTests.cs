using System.IO.Compression;
using System.Net;
using Dashboard.Web.Tests.Support;

namespace Dashboard.Web.Tests.Extensions;

/// <summary>
/// The dashboard's request pipeline (<c>DashboardExtensions.MapDashboard</c>) on a freshly started real dashboard: the
/// very first request to a page answers 200 (GET and HEAD alike), and package assets are served with their build-time
/// compression.
/// </summary>
public sealed class DashboardExtensionsTests
{
    [Theory]
    [InlineData("GET")]
    [InlineData("HEAD")]
    public async Task FirstRequest_HomeRightAfterStart_Answers200(string method)
    {
        var app = await WebApp.StartAsync();
        try
        {
            // The first request the dashboard sees, sent as soon as it logs that it listens.
            using var response = await app.Http.SendAsync(new HttpRequestMessage(new HttpMethod(method), "/"));
            var body = await response.Content.ReadAsStringAsync();

            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
            Assert.Equal("text/html", response.Content.Headers.ContentType?.MediaType);
            if (method == "HEAD")
            {
                Assert.Empty(body);
                using var unknown = await app.Http.SendAsync(new HttpRequestMessage(HttpMethod.Head, "/nope"));
                Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
            }
            else
            {
                Assert.Contains("_framework/blazor.web.js", body, StringComparison.Ordinal);
                await AssertPackageCssCompressed(app);
            }
        }
        finally
        {
            var root = app.Root;
            await app.DisposeAsync();
            WebApp.DeleteRoot(root);
        }
    }

    // MudBlazor's CSS with gzip accepted: the build's gzip (about 1:9), not the copy ASP.NET's development handler
    // re-encodes at run time without compression (1:1) unless ReloadStaticAssetsAtRuntime is false.
    private static async Task AssertPackageCssCompressed(WebApp app)
    {
        using var request = new HttpRequestMessage(HttpMethod.Get, "/_content/MudBlazor/MudBlazor.min.css");
        request.Headers.AcceptEncoding.ParseAdd("gzip");
        using var response = await app.Http.SendAsync(request);
        var compressed = await response.Content.ReadAsByteArrayAsync();
        await using var gzip = new GZipStream(new MemoryStream(compressed), CompressionMode.Decompress);
        using var css = new MemoryStream();
        await gzip.CopyToAsync(css);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("gzip", Assert.Single(response.Content.Headers.ContentEncoding));
        Assert.True(compressed.Length * 4 < css.Length, $"{compressed.Length} B served for {css.Length} B of CSS");
    }
}
