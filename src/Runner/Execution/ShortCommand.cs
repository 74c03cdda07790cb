using System.Diagnostics;
using Dashboard.Runner.Load;

namespace Dashboard.Runner.Execution;

/// <summary>Runs a short system tool (<c>taskset</c>, <c>ip</c>, <c>tc</c>) to its end and hands back what it said.</summary>
internal static class ShortCommand
{
    /// <summary>
    /// Runs <paramref name="file"/> with <paramref name="arguments"/> and waits for it: its exit code, standard output and
    /// standard error (read concurrently, so neither pipe can fill and block it). Exit code 127 with the reason in
    /// <c>Error</c> when the tool is missing; never throws for that.
    /// </summary>
    public static (int Code, string Output, string Error) Run(string file, IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        try
        {
            using var process = Process.Start(start)!;
            var output = SocketCompletions.ReadToEndOnThread(process.StandardOutput);
            var error = process.StandardError.ReadToEnd();
            process.WaitForExit();
            return (process.ExitCode, output.Result, error);
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            return (127, "", e.Message);
        }
    }
}
