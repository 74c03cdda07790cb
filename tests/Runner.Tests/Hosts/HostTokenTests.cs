using Dashboard.Runner.Hosts;
using Dashboard.Runner.Tests.Support;
using Dashboard.Service.Contracts.Security;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Runner.Tests.Hosts;

/// <summary>Which control token the runner sends (docs/security.md), and what a host that refuses it does to a run.</summary>
public sealed class HostTokenTests : IDisposable
{
    private readonly string _directory = Directory.CreateTempSubdirectory("host-token-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Theory]
    [InlineData("http://10.9.9.9:5090")]
    [InlineData("http://localhost:5090")]
    public void For_VariableSet_ItForAnyHost(string host)
    {
        File.WriteAllText(Path.Combine(_directory, HostControlToken.FileName), "from-the-file-0123456789\n");

        Assert.Equal("from-the-variable-0123", HostToken.For(new Uri(host), _directory, _ => "from-the-variable-0123"));
    }

    [Theory]
    [InlineData("http://localhost:5090", "from-the-file-0123456789")]
    [InlineData("http://127.0.0.1:41000", "from-the-file-0123456789")]
    [InlineData("http://[::1]:5090", "from-the-file-0123456789")]
    [InlineData("http://10.9.9.9:5090", null)]
    [InlineData("http://bench-server:5090", null)]
    public void For_NoVariable_TheFileOnlyForALocalHost(string host, string? expected)
    {
        File.WriteAllText(Path.Combine(_directory, HostControlToken.FileName), "from-the-file-0123456789\n");

        Assert.Equal(expected, HostToken.For(new Uri(host), _directory, _ => ""));
    }

    [Fact]
    public void For_NoVariableNoFile_Null() =>
        Assert.Null(HostToken.For(new Uri("http://localhost:5090"), _directory, _ => null));

    [Fact]
    public async Task Run_WrongToken_ExitsThreeNamingTheVariableAndStoresNothing()
    {
        await using var host = await ServiceHostProcess.StartAsync();
        var database = Path.Combine(_directory, "results.db");

        using var runner = RunnerProcess.Start(WriteScenario(host), database, _directory,
            new Dictionary<string, string> { [HostControlToken.EnvironmentVariable] = "not-the-hosts-token-0123" });
        var exit = await runner.WaitForExitAsync();

        Assert.Equal(3, exit);
        Assert.Contains("error: the host refused the control token: set DASHBOARD_HOST_TOKEN", runner.Stderr, StringComparison.Ordinal);
        Assert.Contains("the one sent is not its token", runner.Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("not-the-hosts-token-0123", runner.Stderr, StringComparison.Ordinal);
        Assert.False(File.Exists(database));
    }

    [Fact]
    public async Task Run_NoVariableLocalHostWithAMadeToken_ReadsItFromTheSecurityFolderAndCompletes()
    {
        await using var host = await ServiceHostProcess.StartAsync(false, ServiceHostProcess.GeneratedTokenArgument);
        var database = Path.Combine(_directory, "results.db");

        using var runner = RunnerProcess.Start(WriteScenario(host), database, _directory,
            new Dictionary<string, string> { [HostControlToken.EnvironmentVariable] = "" }, ["--security-dir", host.SecurityDirectory]);
        var exit = await runner.WaitForExitAsync();

        Assert.True(exit == 0, $"exit {exit}: {runner.Stderr}");
        using var db = Data.ResultsDatabase.Open(database);
        Assert.Equal((0, 5), db.Levels.Select(l => new { l.Errors, l.Requests }).AsEnumerable().Select(l => (l.Errors, l.Requests)).Single());
        Assert.NotEmpty(db.ResourceSamples); // GET /resources answered with the token during the run
    }

    [Fact]
    public async Task Run_NoTokenAtAll_ExitsThreeSayingNoneWasSent()
    {
        await using var host = await ServiceHostProcess.StartAsync();

        using var runner = RunnerProcess.Start(WriteScenario(host), Path.Combine(_directory, "results.db"), _directory,
            new Dictionary<string, string> { [HostControlToken.EnvironmentVariable] = "" }, ["--security-dir", _directory]);
        var exit = await runner.WaitForExitAsync();

        Assert.Equal(3, exit);
        Assert.Contains("the host refused the control token: set DASHBOARD_HOST_TOKEN", runner.Stderr, StringComparison.Ordinal);
        Assert.Contains("none was sent", runner.Stderr, StringComparison.Ordinal);
    }

    private string WriteScenario(ServiceHostProcess host)
    {
        var path = Path.Combine(_directory, "scenario.json");
        File.WriteAllText(path, $$"""
            {"name": "token", "host": "{{host.ControlAddress.ToString().TrimEnd('/')}}", "variants": ["AspNetHttpJson"], "clients": ["dotnet"],
             "payloads": ["Int"], "levels": [1], "requestsPerClient": 5, "warmup": 1}
            """);
        return path;
    }
}
