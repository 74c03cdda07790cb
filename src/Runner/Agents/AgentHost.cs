using System.Net.Sockets;
using Dashboard.Data.Agents;
using Dashboard.Data.Runs;
using Dashboard.Runner.Clients;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Service.Contracts.Resources;
using Hangfire;
using Hangfire.PostgreSql;
using Hangfire.PostgreSql.Factories;
using Npgsql;

namespace Dashboard.Runner.Agents;

/// <summary>The agent's settings from its command line.</summary>
/// <param name="ConnectionString">The PostgreSQL connection string.</param>
/// <param name="Name">The agent's name.</param>
/// <param name="HeartbeatInterval">Time between heartbeats.</param>
public sealed record AgentSettings(string ConnectionString, string Name, TimeSpan HeartbeatInterval)
{
    /// <summary>
    /// The service host's security folder on this machine (CA certificate, client key store, credentials.json;
    /// docs/security.md), read when a level asks for a secure variant. Default: the local host's.
    /// </summary>
    public string SecurityDirectory { get; init; } = Service.Contracts.Security.HostDataDirectory.DefaultSecurityDirectory;

    /// <summary>Heartbeats that may fail in a row before the agent gives the database up.</summary>
    public int MissedHeartbeatsToStop { get; init; } = 3;
}

/// <summary>
/// One agent's life (docs/agents.md): connect, register, serve its Hangfire queue with one worker, heartbeat, sign off.
/// Every database failure ends it with the reason on <paramref name="log"/> and <see cref="ExitCodes.DatabaseUnavailable"/>:
/// an agent without its database cannot receive work nor store samples, so it stops its load at once rather than measure
/// into the void.
/// </summary>
public sealed class AgentHost(AgentSettings settings, TextWriter log)
{
    /// <summary>Runs the agent until <paramref name="stop"/> or the database is lost; returns the exit code.</summary>
    /// <param name="stop">Stops the agent (it signs off).</param>
    /// <param name="stopReason">Why it was stopped, asked once it stops (stored with its sign-off).</param>
    public async Task<int> RunAsync(CancellationToken stop, Func<string>? stopReason = null)
    {
        ArgumentNullException.ThrowIfNull(settings);
        // Short timeouts: a database that stops answering must be noticed within a few heartbeats, not after Npgsql's 30 s.
        var connectionString = new NpgsqlConnectionStringBuilder(settings.ConnectionString)
        {
            Timeout = Math.Max(2, (int)settings.HeartbeatInterval.TotalSeconds * 2),
            CommandTimeout = Math.Max(2, (int)settings.HeartbeatInterval.TotalSeconds * 2),
            KeepAlive = 1,
            ApplicationName = AgentRegistry.ApplicationName(settings.Name),
        }.ConnectionString;
        var registry = new AgentRegistry(connectionString);
        var where = Where(settings.ConnectionString);
        NpgsqlConnection connection;
        ClockOffset offset;
        var pid = Environment.ProcessId;
        var drivers = ClientDriverRegistry.CreateDefault(TimeSpan.FromSeconds(ClientDriverRegistry.DefaultRequestTimeoutSeconds));
        var registration = new AgentRegistration(settings.Name, Environment.MachineName, CpuAffinity.CoreCount(), Technologies(drivers), drivers.Unavailable, Runtimes(), pid);
        try
        {
            // The first connection may wait longer than a heartbeat's (a busy or distant server is not a lost one); the
            // short timeouts apply once the agent runs.
            connection = await new AgentRegistry(new NpgsqlConnectionStringBuilder(connectionString) { Timeout = Math.Max(15, (int)settings.HeartbeatInterval.TotalSeconds * 2) }.ConnectionString)
                .OpenAsync(stop);
        }
        catch (Exception e) when (IsDatabaseFailure(e))
        {
            await log.WriteLineAsync($"error: cannot reach the database {where}: {Reason(e)}");
            return ExitCodes.DatabaseUnavailable;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return ExitCodes.Success;
        }

        await using var _ = connection;
        PostgreSqlStorage storage;
        try
        {
            await AgentRegistry.EnsureSchemaAsync(connection, stop);
            await LevelBarrier.EnsureSchemaAsync(connection, stop);
            // Hangfire's schema first: an agent shown online can take work at once.
            storage = CreateStorage(connectionString);
            offset = await ClockOffset.MeasureAsync(connection, stop);
            await AgentRegistry.RegisterAsync(connection, registration, offset, p => ProcessIdentity.Of(p) is not null, stop);
        }
        catch (AgentNameTakenException e)
        {
            await log.WriteLineAsync($"error: {e.Message}");
            return ExitCodes.AgentRefused;
        }
        catch (Exception e) when (IsDatabaseFailure(e) || e.InnerException is { } inner && IsDatabaseFailure(inner))
        {
            await log.WriteLineAsync($"error: the database {where} failed while the agent registered: {Reason(e)}");
            return ExitCodes.DatabaseUnavailable;
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            return ExitCodes.Success;
        }

        var queue = AgentQueues.NameOf(settings.Name);
        await log.WriteLineAsync(
            $"note: agent {settings.Name} registered in {where}: queue {queue}, {registration.Cores} cores, clients {string.Join(", ", registration.Technologies)}, "
            + $"clock offset {offset.OffsetMs:0.000} ms ± {offset.UncertaintyMs:0.000} ms");

        using var lost = new CancellationTokenSource();
        using var ending = CancellationTokenSource.CreateLinkedTokenSource(stop, lost.Token);
        var context = new AgentContext(settings.Name, registry, drivers, ending.Token) { SecurityDirectory = settings.SecurityDirectory };
        string? failure = null;
        // Only a worker on the agent's own queue (with the server's own heartbeat and watchdog): no recurring or delayed job
        // schedulers, which would load the dashboard's job types that an agent does not have.
        var worker = new Hangfire.Server.Worker([queue], new Hangfire.Server.BackgroundJobPerformer(Hangfire.Common.JobFilterProviders.Providers, new AgentJobActivator(context)),
            new Hangfire.States.BackgroundJobStateChanger());
        using (var server = new Hangfire.Server.BackgroundProcessingServer(
            storage,
            [worker],
            new Dictionary<string, object> { ["Queues"] = new[] { queue }, ["WorkerCount"] = 1 },
            new Hangfire.Server.BackgroundProcessingServerOptions
            {
                ServerName = $"agent:{settings.Name}:{pid}",
                ServerTimeout = TimeSpan.FromMinutes(1),
            }))
        {
            failure = await HeartbeatUntilStoppedAsync(connection, pid, lost, ending.Token);
            server.SendStop();
            // The job in progress sees its cancellation token (ending) and stops its load; give it a moment to store what it measured.
            if (!server.WaitForShutdown(TimeSpan.FromSeconds(15)))
            {
                await log.WriteLineAsync("note: the job in progress did not stop within 15 s; leaving it");
            }
        }

        if (failure is not null)
        {
            await log.WriteLineAsync($"error: agent {settings.Name} lost the database {where}: {failure}; its load is stopped");
            return ExitCodes.DatabaseUnavailable;
        }

        try
        {
            using var signOff = new CancellationTokenSource(TimeSpan.FromSeconds(5));
            await AgentRegistry.SignOffAsync(connection, settings.Name, pid, stopReason?.Invoke() ?? "stopped", signOff.Token);
        }
        catch (Exception e) when (IsDatabaseFailure(e) || e is OperationCanceledException)
        {
            await log.WriteLineAsync($"note: could not sign off ({Reason(e)}); the agent shows offline after {AgentRegistry.OfflineAfter.TotalSeconds:0} s");
        }

        await log.WriteLineAsync($"note: agent {settings.Name} stopped");
        return ExitCodes.Success;
    }

    /// <summary>Heartbeats until <paramref name="ending"/>; returns null when stopped, or why the database was given up (then cancels <paramref name="lost"/>).</summary>
    private async Task<string?> HeartbeatUntilStoppedAsync(NpgsqlConnection connection, int pid, CancellationTokenSource lost, CancellationToken ending)
    {
        var missed = 0;
        using var timer = new PeriodicTimer(settings.HeartbeatInterval);
        try
        {
            while (await timer.WaitForNextTickAsync(ending))
            {
                try
                {
                    if (connection.State != System.Data.ConnectionState.Open)
                    {
                        await connection.CloseAsync();
                        await connection.OpenAsync(ending);
                    }

                    var offset = await ClockOffset.MeasureAsync(connection, ending, roundTrips: 4);
                    if (!await AgentRegistry.HeartbeatAsync(connection, settings.Name, pid, offset, ending))
                    {
                        await lost.CancelAsync();
                        return "another agent took over the name (its registration row is no longer this process's)";
                    }

                    missed = 0;
                }
                catch (Exception e) when (IsDatabaseFailure(e) || e is InvalidOperationException)
                {
                    missed++;
                    await log.WriteLineAsync($"note: heartbeat {missed} of {settings.MissedHeartbeatsToStop} failed: {Reason(e)}");
                    if (missed >= settings.MissedHeartbeatsToStop)
                    {
                        await lost.CancelAsync();
                        return $"{missed} heartbeats in a row failed ({Reason(e)})";
                    }
                }
            }
        }
        catch (OperationCanceledException) when (ending.IsCancellationRequested)
        {
        }

        return null;
    }

    /// <summary>Hangfire's storage on the deployment's database (its schema is made or upgraded here, in one step).</summary>
    internal static PostgreSqlStorage CreateStorage(string connectionString)
    {
        var options = new PostgreSqlStorageOptions
        {
            PrepareSchemaIfNecessary = true,
            QueuePollInterval = TimeSpan.FromMilliseconds(500),
        };
        return new PostgreSqlStorage(new NpgsqlConnectionFactory(connectionString, options), options);
    }

    private static IReadOnlyList<string> Technologies(ClientDriverRegistry drivers) => drivers.Available;

    private static Dictionary<string, string> Runtimes()
    {
        var runtimes = new Dictionary<string, string>(StringComparer.Ordinal) { ["dotnet"] = System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription };
        if (ToolVersion.FirstLineOf("java", "-version") is { } java)
        {
            runtimes["java"] = java;
        }

        if (ToolVersion.FirstLineOf("node", "--version") is { } node)
        {
            runtimes["node"] = node;
        }

        return runtimes;
    }

    /// <summary>Host, port and database of <paramref name="connectionString"/>, never its password.</summary>
    internal static string Where(string connectionString)
    {
        try
        {
            var builder = new NpgsqlConnectionStringBuilder(connectionString);
            return $"{builder.Host}:{builder.Port}/{builder.Database}";
        }
        catch (ArgumentException)
        {
            return "(malformed connection string)";
        }
    }

    internal static bool IsDatabaseFailure(Exception e) => e is NpgsqlException or SocketException or TimeoutException or IOException
        || (e is OperationCanceledException && e.InnerException is TimeoutException);

    private static string Reason(Exception e) => e.InnerException is { } inner && e.Message.Contains("Exception while", StringComparison.Ordinal)
        ? $"{e.Message.TrimEnd('.')}: {inner.Message}" : e.Message;
}
