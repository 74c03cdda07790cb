using System.Diagnostics;
using System.Text.Json;
using Dashboard.Tests.RealProcesses;

namespace Dashboard.Service.Tests.Jvm;

/// <summary>
/// The JVM service's command line (src/Service/Jvm/.../ServiceOptions.java, Commons CLI): a bad option is refused
/// with exit code 2 and a <c>fail</c> line (Gson-written JSON) whose message names the option.
/// </summary>
public sealed class ServiceOptionsTests
{
    [Theory]
    [InlineData("--nope", "'--nope'")]
    [InlineData("--bin 127.0.0.1 --port MetroSoap11=0", "'--bin'")]
    [InlineData("--port", "--port needs a value")]
    [InlineData("--port MetroSoap11", "--port wants NAME=PORT")]
    [InlineData("--port Nope=1", "--port: unknown variant 'Nope'")]
    [InlineData("--port MetroSoap11=70000", "--port: port of MetroSoap11")]
    [InlineData("stray --port MetroSoap11=0", "'stray'")]
    [InlineData("--port MetroSoap11Https=0", "--security-dir")]
    public async Task Parse_BadOption_Exits2WithAFailLineNamingIt(string arguments, string expected)
    {
        var (exit, stdout) = await RunServiceAsync(arguments.Split(' '));

        Assert.Equal(2, exit);
        var line = stdout.Trim();
        Assert.StartsWith("fail ", line, StringComparison.Ordinal);
        using var body = JsonDocument.Parse(line["fail ".Length..]);
        Assert.Contains(expected, body.RootElement.GetProperty("message").GetString(), StringComparison.Ordinal);
    }

    private static async Task<(int Exit, string Stdout)> RunServiceAsync(IEnumerable<string> arguments)
    {
        var hostDirectory = Path.GetDirectoryName(ServiceHostProcess.ExecutablePath)!;
        var classpath = (await File.ReadAllTextAsync(Path.Combine(hostDirectory, "jvm", "classpath"))).Trim();
        var start = new ProcessStartInfo("java") { RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true };
        foreach (var a in (string[])["-cp", classpath, "dashboard.service.ServiceMain", .. arguments])
        {
            start.ArgumentList.Add(a);
        }
        using var process = Process.Start(start)!;
        process.StandardInput.Close(); // end of input means "stop" should it start after all
        var stdout = process.StandardOutput.ReadToEndAsync();
        var stderr = process.StandardError.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(60));
        await process.WaitForExitAsync(timeout.Token);
        await stderr;
        return (process.ExitCode, await stdout);
    }
}
