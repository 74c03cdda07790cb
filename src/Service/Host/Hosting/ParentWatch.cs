using Dashboard.Service.Host.Settings;
using Microsoft.Extensions.Options;

namespace Dashboard.Service.Host.Hosting;

/// <summary>
/// With <c>ServiceHost:StopAtStdinEof</c>: reads standard input until it ends, then stops the host (which stops the JVM
/// service the same way, by closing its standard input). The process that started the host holds the pipe's write end;
/// the kernel closes it when that process ends, whatever the signal. Why a pipe rather than <c>PR_SET_PDEATHSIG</c>:
/// docs/architecture.md, "A process tree that dies together".
/// </summary>
public sealed class ParentWatch(IOptions<ServiceHostOptions> options, IHostApplicationLifetime lifetime, ILogger<ParentWatch> logger) : IHostedService
{
    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (!options.Value.StopAtStdinEof)
        {
            return Task.CompletedTask;
        }

        var thread = new Thread(() =>
        {
            using var input = Console.OpenStandardInput();
            var buffer = new byte[256];
            try
            {
                while (input.Read(buffer, 0, buffer.Length) > 0)
                {
                }
            }
            catch (IOException)
            {
            }

            logger.LogWarning("Standard input ended: the process that started the host is gone; stopping");
            lifetime.StopApplication();
        })
        {
            IsBackground = true,
            Name = "parent-watch",
        };
        thread.Start();
        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
}
