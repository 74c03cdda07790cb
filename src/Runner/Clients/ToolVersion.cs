using Dashboard.Runner.Load;

namespace Dashboard.Runner.Clients;

/// <summary>The version a client runtime (java, node) reports, for the run's environment and an agent's registration.</summary>
public static class ToolVersion
{
    /// <summary>The first line of <c>TOOL ARGUMENT</c>'s output (java prints it on stderr), or null when the tool is missing or hangs (5 s).</summary>
    public static string? FirstLineOf(string tool, string argument)
    {
        try
        {
            using var process = new System.Diagnostics.Process
            {
                StartInfo = new System.Diagnostics.ProcessStartInfo(tool, argument) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false },
            };
            process.Start();
            // Blocking reads on threads of their own, never an awaited read waited for synchronously: with inline socket
            // completions (RunCommand turns them on for the lean generator) a pipe's async read completes on the socket
            // event thread, and a synchronous wait for it on that thread would never end.
            var stdout = SocketCompletions.ReadToEndOnThread(process.StandardOutput);
            var stderr = SocketCompletions.ReadToEndOnThread(process.StandardError);
            if (!process.WaitForExit(5000))
            {
                process.Kill(entireProcessTree: true);
                return null;
            }

            var text = stdout.Result.Length > 0 ? stdout.Result : stderr.Result;
            return text.Split('\n', StringSplitOptions.RemoveEmptyEntries).FirstOrDefault()?.Trim();
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or IOException)
        {
            return null;
        }
    }
}
