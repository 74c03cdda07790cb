using System.Net;
using System.Net.Http.Headers;
using Dashboard.Service.Contracts.Security;
using Dashboard.Tests.RealProcesses;

#pragma warning disable CA1416 // File modes: the host and its tests run on Linux only (the host assembly says so).

namespace Dashboard.Service.Tests.Host.Control;

/// <summary>The built service host's control API asks for its token on every route but /healthz (docs/security.md).</summary>
public sealed class ControlTokenTests(JvmFreeHostFixture fixture) : IClassFixture<JvmFreeHostFixture>
{
    private readonly ServiceHostProcess _host = fixture.Host;

    public static TheoryData<string> GuardedRoutes => new() { "endpoints", "resources", "security", "security/ca.crt", "versions" };

    [Theory]
    [MemberData(nameof(GuardedRoutes))]
    public async Task ControlApi_NoToken_401NamingTheToken(string route)
    {
        using var http = new HttpClient();

        using var response = await http.GetAsync(new Uri(_host.ControlAddress, route));
        var body = await response.Content.ReadAsStringAsync();

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Equal("Bearer", Assert.Single(response.Headers.WwwAuthenticate).Scheme);
        Assert.Contains("Authorization: Bearer <token>", body, StringComparison.Ordinal);
        Assert.Contains(HostControlToken.EnvironmentVariable, body, StringComparison.Ordinal);
    }

    [Theory]
    [MemberData(nameof(GuardedRoutes))]
    public async Task ControlApi_WrongToken_401(string route)
    {
        using var http = new HttpClient();
        http.DefaultRequestHeaders.Authorization = HostControlToken.Header(ServiceHostProcess.TestControlToken + "x");

        using var response = await http.GetAsync(new Uri(_host.ControlAddress, route));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }

    [Theory]
    [MemberData(nameof(GuardedRoutes))]
    public async Task ControlApi_ConfiguredToken_Answers(string route)
    {
        using var http = _host.CreateControlClient();

        using var response = await http.GetAsync(new Uri(_host.ControlAddress, route));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task Healthz_NoToken_Answers200()
    {
        using var http = new HttpClient();

        using var response = await http.GetAsync(new Uri(_host.ControlAddress, "healthz"));

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task ControlApi_OtherScheme_401()
    {
        using var http = new HttpClient();
        http.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Basic", ServiceHostProcess.TestControlToken);

        using var response = await http.GetAsync(new Uri(_host.ControlAddress, "endpoints"));

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
    }

    [Fact]
    public async Task LoadOrCreate_NoConfiguredToken_MakesAnOwnerOnlyFileThatAnswersAndSurvivesARestart()
    {
        var data = Directory.CreateTempSubdirectory("host-token-").FullName;
        try
        {
            string first;
            await using (var host = await ServiceHostProcess.StartWithDataDirectoryAsync(data, false, ServiceHostProcess.GeneratedTokenArgument))
            {
                first = host.ControlToken;
                using var http = host.CreateControlClient();
                using var answered = await http.GetAsync(new Uri(host.ControlAddress, "endpoints"));
                using var configured = new HttpClient();
                configured.DefaultRequestHeaders.Authorization = HostControlToken.Header(ServiceHostProcess.TestControlToken);
                using var refused = await configured.GetAsync(new Uri(host.ControlAddress, "endpoints"));

                Assert.Equal(HttpStatusCode.OK, answered.StatusCode);
                Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
                Assert.DoesNotContain(host.Output, line => line.Contains(first, StringComparison.Ordinal));
            }

            var file = Path.Combine(data, "security", HostControlToken.FileName);
            Assert.Equal(UnixFileMode.UserRead | UnixFileMode.UserWrite, File.GetUnixFileMode(file));
            Assert.Equal(43, first.Length);

            await using var restarted = await ServiceHostProcess.StartWithDataDirectoryAsync(data, false, ServiceHostProcess.GeneratedTokenArgument);
            using var again = restarted.CreateControlClient();
            using var response = await again.GetAsync(new Uri(restarted.ControlAddress, "resources"));

            Assert.Equal(first, restarted.ControlToken);
            Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        }
        finally
        {
            Directory.Delete(data, recursive: true);
        }
    }

    [Fact]
    public async Task Start_ShortConfiguredToken_ExitsNamingTheKey()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => ServiceHostProcess.StartAsync(false, "--ServiceHost:ControlToken=short"));

        Assert.Contains("ServiceHost:ControlToken", error.Message, StringComparison.Ordinal);
    }
}
