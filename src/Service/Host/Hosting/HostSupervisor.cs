using System.Diagnostics;
using System.Runtime.InteropServices;
using Dashboard.Service.Contracts.Resources;

namespace Dashboard.Service.Host.Hosting;

/// <summary>
/// <c>Dashboard.Service.Host supervise [host arguments]</c>: runs the service host as a child process with
/// <c>ServiceHost:RestartOnRequest=true</c> and starts it again, with the same arguments, whenever it exits with
/// <see cref="HostRestart.ExitCode"/> (<c>POST /restart</c>). A host on another machine started this way gets a fresh
/// process for each launch of a run, as the dashboard's local host does (issue #32 item 3, docs/statistics.md
/// "Launches", docs/topologies.md "Remote hosts"); a host started without it answers 409 and is shared by the launches.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item>The child inherits standard output and error (its log is the supervisor's), and its standard input is a pipe
/// from the supervisor with <c>ServiceHost:StopAtStdinEof=true</c>: when the supervisor ends in any way, SIGKILL
/// included, the host (and its JVM) stops too.</item>
/// <item>SIGTERM or SIGINT to the supervisor stops the child (closing its standard input: a clean stop; SIGKILL of the
/// whole tree after <see cref="StopGrace"/>) and ends the supervisor with exit code 0.</item>
/// <item>Any other end of the child ends the supervisor with the child's exit code.</item>
/// </list>
/// </remarks>
public static class HostSupervisor
{
    /// <summary>The first command-line argument that selects this mode.</summary>
    public const string Command = "supervise";

    /// <summary>Time a stopping child gets after its standard input closed before the supervisor kills it (and its JVM).</summary>
    public static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(20);

    /// <summary>Supervises the host until it ends other than on request, or until SIGTERM/SIGINT.</summary>
    /// <param name="hostArguments">The host's own arguments (<c>--urls …</c>, <c>--ServiceHost:…</c>), passed to every start.</param>
    /// <param name="log">Where the supervisor's own lines go (one per start and per end).</param>
    /// <returns>The exit code for the supervisor: the child's, or 0 after SIGTERM/SIGINT.</returns>
    public static async Task<int> RunAsync(IReadOnlyList<string> hostArguments, TextWriter log)
    {
        ArgumentNullException.ThrowIfNull(hostArguments);
        ArgumentNullException.ThrowIfNull(log);
        using var stop = new CancellationTokenSource();
        using var term = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
        using var interrupt = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
        int? previous = null;
        while (true)
        {
            using var process = Process.Start(StartInfo(hostArguments))!;
            log.WriteLine(previous is { } ended
                ? $"supervisor: service host pid {process.Id} started (a fresh process for a run's next launch: pid {ended} ended on POST /restart)"
                : $"supervisor: service host pid {process.Id} started; POST /restart starts a fresh one");
            try
            {
                await process.WaitForExitAsync(stop.Token);
            }
            catch (OperationCanceledException)
            {
                await StopAsync(process);
                log.WriteLine($"supervisor: stopped, and service host pid {process.Id} with it");
                return 0;
            }

            if (process.ExitCode != HostRestart.ExitCode)
            {
                log.WriteLine($"supervisor: service host pid {process.Id} exited with code {process.ExitCode}; not restarted");
                return process.ExitCode;
            }

            previous = process.Id;
        }

        void Stop(PosixSignalContext context)
        {
            context.Cancel = true; // the supervisor ends itself, after its child
            stop.Cancel();
        }
    }

    private static ProcessStartInfo StartInfo(IReadOnlyList<string> hostArguments)
    {
        var path = Environment.ProcessPath ?? throw new InvalidOperationException("the supervisor cannot tell its own executable's path");
        var start = new ProcessStartInfo(path) { UseShellExecute = false, RedirectStandardInput = true };
        if (string.Equals(Path.GetFileNameWithoutExtension(path), "dotnet", StringComparison.Ordinal))
        {
            // Started as `dotnet Dashboard.Service.Host.dll supervise …`: the child is the same assembly.
            start.ArgumentList.Add(typeof(HostSupervisor).Assembly.Location);
        }

        foreach (var argument in hostArguments)
        {
            start.ArgumentList.Add(argument);
        }

        // Last, so they win over the same keys among the arguments.
        start.ArgumentList.Add("--ServiceHost:RestartOnRequest=true");
        start.ArgumentList.Add("--ServiceHost:StopAtStdinEof=true");
        return start;
    }

    private static async Task StopAsync(Process process)
    {
        process.StandardInput.Close();
        using var grace = new CancellationTokenSource(StopGrace);
        try
        {
            await process.WaitForExitAsync(grace.Token);
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            await process.WaitForExitAsync();
        }
    }
}
