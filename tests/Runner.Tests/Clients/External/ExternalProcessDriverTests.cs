using Dashboard.Data.Measurement;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Clients.External;
using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Outcomes;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Tests.Clients.External;

/// <summary>
/// The runner's side of the driver protocol against small shell drivers that follow (or break) docs/driver-protocol.md:
/// records parsed, crashes and protocol errors reported with the reason, cancel honoured.
/// </summary>
public sealed class ExternalProcessDriverTests : IDisposable
{
    private static readonly HostEndpoint Endpoint = new("MetroSoap11", "metro", "http://127.0.0.1:1/benchmark", "HTTP/1.1", "SOAP 1.1", "None", "None");
    private readonly string _directory = Directory.CreateTempSubdirectory("driver-tests-").FullName;

    public void Dispose() => Directory.Delete(_directory, recursive: true);

    [Fact]
    public async Task RunLevel_DriverWritesSamples_ParsesEveryRecord()
    {
        var driver = Driver("""
            read job; echo 'ready {"driver":"fake"}'
            while read level; do
              echo 's 0 10 250 0 1 120 130'; echo 's 1 12 300 0 0 121 131'; echo 's 1 400 500 6 0 121 -1'
              echo 'level {"index":0,"clients":2,"startedUnixMs":1795000000000,"elapsedUs":900,"cancelled":false}'
            done
            """);
        await using var session = await driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None);

        var result = await session.RunLevelAsync(new LevelPlan(2, 1, 1, null), CancellationToken.None);

        Assert.Equal(3, result.Samples.Length);
        Assert.Equal(new Sample(0, 10, 250, SampleOutcome.Success, true, 120, 130), result.Samples[0]);
        Assert.Equal(new Sample(1, 400, 500, SampleOutcome.WrongReply, false, 121, -1), result.Samples[2]);
        Assert.False(result.Cancelled);
        Assert.Equal(DateTimeOffset.FromUnixTimeMilliseconds(1795000000000).UtcDateTime.AddMicroseconds(900), result.EndedUtc);
        Assert.Equal(1, result.Statistics.Successes);
    }

    [Fact]
    public async Task Open_DriverFails_ReportsItsMessage()
    {
        var driver = Driver("""read job; echo 'fail {"message":"cannot read the WSDL at http://127.0.0.1:1/benchmark?wsdl: Connection refused"}'; exit 1""");

        var error = await Assert.ThrowsAsync<LoadClientException>(() => driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None));

        Assert.Equal("the fake driver failed: cannot read the WSDL at http://127.0.0.1:1/benchmark?wsdl: Connection refused", error.Message);
    }

    [Fact]
    public async Task RunLevel_DriverCrashes_FailsTheCellWithExitCodeAndStderr()
    {
        var driver = Driver("""read job; echo 'ready {}'; read level; echo 's 0 1 2 0 0 3 4'; echo 'OutOfMemoryError: Java heap space' >&2; exit 3""");
        await using var session = await driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None);

        var error = await Assert.ThrowsAsync<LoadClientException>(() => session.RunLevelAsync(new LevelPlan(1, 0, 1, null), CancellationToken.None));

        Assert.Contains("the fake driver ended its output (exit code 3)", error.Message, StringComparison.Ordinal);
        Assert.Contains("OutOfMemoryError: Java heap space", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunLevel_MalformedSample_IsAProtocolError()
    {
        var driver = Driver("""read job; echo 'ready {}'; read level; echo 's 0 1 two 0 0 3 4'; sleep 5""");
        await using var session = await driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None);

        var error = await Assert.ThrowsAsync<LoadClientException>(() => session.RunLevelAsync(new LevelPlan(1, 0, 1, null), CancellationToken.None));

        Assert.StartsWith("the fake driver broke the protocol", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task RunLevel_Cancelled_SendsCancelAndKeepsTheSamplesTaken()
    {
        // The fake writes one sample, then waits for the cancel line and closes the level as cancelled.
        var driver = Driver("""
            read job; echo 'ready {}'; read level
            read cancel
            case "$cancel" in *'"cancel"'*) echo 's 0 5 10 0 0 1 1'; echo 'level {"index":0,"clients":1,"startedUnixMs":1795000000000,"elapsedUs":20,"cancelled":true}';; esac
            read rest
            """);
        await using var session = await driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None);
        using var cancellation = new CancellationTokenSource(TimeSpan.FromMilliseconds(300));

        var result = await session.RunLevelAsync(new LevelPlan(1, 0, 1000, null), cancellation.Token);

        Assert.True(result.Cancelled);
        Assert.Single(result.Samples);
    }

    [Fact]
    public async Task Open_DriverNotBuilt_SaysWhatIsMissing()
    {
        var command = DriverCommand.Java(Path.Combine(_directory, "nothing-here"));
        var driver = new ExternalProcessDriver(command, TimeSpan.FromSeconds(5));

        var error = await Assert.ThrowsAsync<LoadClientException>(() => driver.OpenCellAsync(Endpoint, Payload("Int"), CancellationToken.None));

        Assert.Contains("the java driver is not built", error.Message, StringComparison.Ordinal);
    }

    private ExternalProcessDriver Driver(string script)
    {
        var path = Path.Combine(_directory, $"driver-{Guid.NewGuid():N}.sh");
        File.WriteAllText(path, script.ReplaceLineEndings("\n") + "\n");
        return new ExternalProcessDriver(new DriverCommand("fake", "bash", [path]), TimeSpan.FromSeconds(5));
    }

    private static PayloadCase Payload(string id) => PayloadCatalogue.TryGet(id, out var payload) ? payload : throw new ArgumentException(id);
}
