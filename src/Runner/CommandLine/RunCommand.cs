using System.CommandLine;
using System.Text.Json;
using Dashboard.Data;
using Dashboard.Data.Queries;
using Dashboard.Runner.Clients;
using Dashboard.Runner.Execution;
using Dashboard.Runner.Hosts;
using Dashboard.Runner.Load;
using Dashboard.Runner.Topologies;
using Dashboard.Service.Contracts.Processes;
using Dashboard.Service.Contracts.Progress;
using Dashboard.Service.Contracts.Scenarios;
using Microsoft.EntityFrameworkCore;
using Spectre.Console;

namespace Dashboard.Runner.CommandLine;

/// <summary>
/// <c>run --scenario FILE (--db FILE | --storage postgresql [--results-connection CS]) [--levels-csv FILE] [--progress bar|json]
/// [--security-dir DIR] [--run-id N] [--stop-at-stdin-eof]</c> (docs/runner.md): runs a scenario headless, stores its samples
/// (SQLite file or PostgreSQL; docs/architecture.md, "Storage"), prints the per-level table.
/// </summary>
public static class RunCommand
{
    /// <summary>The environment variable the PostgreSQL connection string is read from when <c>--results-connection</c> is not given.</summary>
    public const string ResultsConnectionVariable = ResultsStore.ConnectionVariable;

    /// <summary>Default of <c>--request-timeout</c>, in seconds.</summary>
    public const int DefaultRequestTimeoutSeconds = ClientDriverRegistry.DefaultRequestTimeoutSeconds;

    /// <summary>Builds the <c>run</c> command, using <paramref name="drivers"/> for the client technologies.</summary>
    /// <param name="drivers">The client technologies of this build, given the per-request timeout (<c>--request-timeout</c>).</param>
    /// <param name="generator">The runner and its driver processes, for the generator CPU readings.</param>
    public static Command Create(Func<TimeSpan, ClientDriverRegistry> drivers, GeneratorProcesses? generator = null)
    {
        ArgumentNullException.ThrowIfNull(drivers);
        var scenario = new Option<FileInfo>("--scenario") { Description = "Scenario document (JSON: README.md, section Scenario document).", Required = true };
        var database = new Option<FileInfo?>("--db") { Description = "Results database (SQLite file; --storage sqlite); created and migrated if needed." };
        var storage = new Option<string>("--storage")
        {
            Description = "Where results are stored: 'sqlite' (default: the --db file) or 'postgresql' (--results-connection, else the environment variable "
                + ResultsConnectionVariable + "); docs/architecture.md, \"Storage\".",
            DefaultValueFactory = _ => "sqlite",
        };
        storage.AcceptOnlyFromAmong("sqlite", "postgresql");
        var resultsConnection = new Option<string?>("--results-connection")
        {
            Description = $"--storage postgresql: the Npgsql connection string of the results database (default: the environment variable {ResultsConnectionVariable}).",
        };
        var levelsCsv = new Option<FileInfo?>("--levels-csv") { Description = "Also write the per-level aggregates to this CSV file." };
        var progressMode = new Option<string>("--progress") { Description = "Progress output: 'bar' (default, for people) or 'json' (one JSON object per stdout line).", DefaultValueFactory = _ => "bar" };
        progressMode.AcceptOnlyFromAmong("bar", "json");
        var securityDir = new Option<DirectoryInfo>("--security-dir")
        {
            Description = "The host's security folder (CA certificate, client key store, credentials.json; docs/security.md). Default: the local host's <DataDirectory>/security.",
            DefaultValueFactory = _ => new DirectoryInfo(Service.Contracts.Security.HostDataDirectory.DefaultSecurityDirectory),
        };

        var requestTimeout = new Option<int>("--request-timeout")
        {
            Description = $"Per-request timeout in seconds, 1-3600 (default {DefaultRequestTimeoutSeconds}): a request whose whole reply has not arrived by then is a timeout error. "
                + "In a closed loop the response time grows with the clients (300 clients × 1000-element arrays on a busy machine: tens of seconds), so raise it for stress runs.",
            DefaultValueFactory = _ => DefaultRequestTimeoutSeconds,
        };
        requestTimeout.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int>() is < 1 or > 3600)
            {
                result.AddError("--request-timeout: give 1 to 3600 seconds");
            }
        });

        var hostExecutable = new Option<FileInfo>("--host-executable")
        {
            Description = "topology emulated-lan: the service host to start in the run's network namespace (default: the one built beside this runner). Its data folder is the parent of --security-dir.",
            DefaultValueFactory = _ => new FileInfo(Clients.External.BuildInfo.ServiceHostExecutable),
        };
        var lanSubnet = new Option<string>("--lan-subnet")
        {
            Description = $"topology emulated-lan: the private /24 of the emulated link (generator .1, host .2; default {EmulatedLan.DefaultSubnet}, docs/topologies.md).",
            DefaultValueFactory = _ => EmulatedLan.DefaultSubnet,
        };
        var runId = new Option<int?>("--run-id")
        {
            Description = "Continue this run row of the database (one the dashboard queued) instead of making a new one; a run that has ended (Interrupted included) is refused (exit 2).",
        };
        runId.Validators.Add(result =>
        {
            if (result.GetValueOrDefault<int?>() is < 1)
            {
                result.AddError("--run-id: give a run id, 1 or more");
            }
        });
        var orderSeed = new Option<int?>("--order-seed")
        {
            Description = "The seed of the run's random order of cells and levels (docs/statistics.md): the same seed runs a recorded order again. Default: a fresh random seed, stored with the run.",
        };
        var stopAtStdinEof = new Option<bool>("--stop-at-stdin-eof")
        {
            Description = "Stop when standard input ends: the process that started the runner holds it open, so the runner (and its drivers) end with that process, however it ends (SIGKILL included). The run is then Interrupted, its samples kept.",
        };

        var command = new Command("run", "Run a scenario against the service host it names, store every sample, print the per-level table.")
        {
            scenario, database, storage, resultsConnection, levelsCsv, progressMode, securityDir, requestTimeout, runId, stopAtStdinEof, hostExecutable, lanSubnet,
            orderSeed,
        };
        command.Validators.Add(result =>
        {
            if (result.GetValue(storage) == "postgresql")
            {
                if (string.IsNullOrWhiteSpace(result.GetValue(resultsConnection) ?? Environment.GetEnvironmentVariable(ResultsConnectionVariable)))
                {
                    result.AddError($"--results-connection: give the PostgreSQL connection string (or set {ResultsConnectionVariable}) with --storage postgresql");
                }
            }
            else if (result.GetValue(database) is null)
            {
                result.AddError("--db: give the results database file (or --storage postgresql)");
            }
        });
        command.SetAction((parse, cancellationToken) => ExecuteAsync(
            new Invocation(parse.GetRequiredValue(scenario), StoreOf(parse.GetValue(storage), parse.GetValue(database), parse.GetValue(resultsConnection)), parse.GetValue(levelsCsv),
                parse.GetValue(progressMode) == "json", parse.GetRequiredValue(securityDir), parse.GetValue(runId), parse.GetValue(stopAtStdinEof),
                new LanOptions(parse.GetRequiredValue(hostExecutable).FullName, parse.GetRequiredValue(lanSubnet)), parse.GetValue(orderSeed)),
            drivers(TimeSpan.FromSeconds(parse.GetValue(requestTimeout))), generator, cancellationToken));
        return command;
    }

    /// <summary>The results store the options name: the <c>--db</c> file, or PostgreSQL through <c>--results-connection</c> or <see cref="ResultsConnectionVariable"/>.</summary>
    private static ResultsStore StoreOf(string? storage, FileInfo? database, string? connection) => storage == "postgresql"
        ? ResultsStore.PostgreSql(connection ?? Environment.GetEnvironmentVariable(ResultsConnectionVariable)!)
        : ResultsStore.Sqlite(database!.FullName);

    private sealed record LanOptions(string HostExecutable, string Subnet);

    private sealed record Invocation(FileInfo ScenarioFile, ResultsStore Store, FileInfo? LevelsCsv, bool Json, DirectoryInfo SecurityDirectory, int? RunId, bool StopAtStdinEof, LanOptions Lan, int? OrderSeed);

    private static async Task<int> ExecuteAsync(Invocation invocation, ClientDriverRegistry drivers, GeneratorProcesses? generator, CancellationToken interrupt)
    {
        var (scenarioFile, store, levelsCsv, json, securityDirectory, runId, stopAtStdinEof, lanOptions, orderSeed) = invocation;
        // System.CommandLine turns Ctrl+C (SIGINT) and SIGTERM into this token: both cancel the run, keeping the samples taken
        // (exit 130). The dashboard sends SIGTERM: a runner started from a background shell inherits SIGINT ignored.
        // With --stop-at-stdin-eof, the end of standard input (the parent ended, however) cancels it too (ParentWatch).
        using var parentGone = new CancellationTokenSource();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(interrupt, parentGone.Token);
        if (stopAtStdinEof)
        {
            ParentWatch.Start(parentGone, "standard input ended: the process that started the runner is gone; stopping the run");
        }

        var cancellationToken = stop.Token;
        var stderr = Console.Error;
        ScenarioDocument scenario;
        SecurityFolder? security;
        try
        {
            scenario = ScenarioLoader.Load(scenarioFile.FullName);
            // With load agents the clients run on them, and each reads its own copy of the security folder (docs/agents.md).
            security = scenario.Agents is null ? SecurityFolder.ForScenario(scenario, securityDirectory.FullName) : null;
            // Before any socket of this process: the lean generator's runs complete socket I/O on the event thread.
            SocketCompletions.Configure(SocketCompletions.InlineFor(scenario));
        }
        catch (ScenarioException e)
        {
            await stderr.WriteLineAsync($"error: invalid scenario {scenarioFile.Name}: {e.Message}");
            return ExitCodes.InvalidScenario;
        }

        Agents.AgentLevels? agentLevels = null;
        if (scenario.Agents is { } agents)
        {
            try
            {
                var (names, registered) = await ResolveAgentsAsync(agents, scenario, store, cancellationToken);
                agentLevels = new Agents.AgentLevels(names, scenario.Host, new Agents.DistributedLevel(store.Target), scenario.CredentialProfile)
                {
                    Environment = [.. names.Select(n => Agents.LoadAgentEnvironment.Of(registered[n]))],
                };
                await stderr.WriteLineAsync($"note: every level runs on load agents {string.Join(", ", names)} (its clients split over them)");
            }
            catch (ScenarioException e)
            {
                await stderr.WriteLineAsync($"error: invalid scenario {scenarioFile.Name}: {e.Message}");
                return ExitCodes.InvalidScenario;
            }
        }

        // What a runner killed earlier (SIGKILL) left of an emulated LAN, if its watchdog could not remove it.
        foreach (var removed in EmulatedLan.RemoveLeftovers())
        {
            await stderr.WriteLineAsync($"note: removed the emulated LAN {removed} left by a runner that no longer runs");
        }

        MachineBenchmarkLock machine;
        try
        {
            machine = MachineBenchmarkLock.Acquire(MachineBenchmarkLock.DefaultPath);
        }
        catch (BenchmarkBusyException e)
        {
            await stderr.WriteLineAsync($"error: {e.Message}");
            return ExitCodes.MachineBusy;
        }

        using var machineLock = machine;
        EmulatedLan? lan = null;
        try
        {
            if (scenario.Topology == Topology.EmulatedLan)
            {
                try
                {
                    lan = await EmulatedLan.StartAsync(
                        new EmulatedLanSettings(scenario.LinkRateMbps ?? Topology.DefaultLinkRateMbps, scenario.HostCores, lanOptions.Subnet, lanOptions.HostExecutable,
                            Path.GetDirectoryName(securityDirectory.FullName.TrimEnd('/')) ?? securityDirectory.FullName, [], TimeSpan.FromSeconds(180)),
                        line => stderr.WriteLine($"note: {line}"), cancellationToken);
                }
                catch (TopologyRefusedException e)
                {
                    await stderr.WriteLineAsync($"error: invalid scenario {scenarioFile.Name}: topology: {e.Message}");
                    return ExitCodes.InvalidScenario;
                }
                catch (TopologyFailedException e)
                {
                    await stderr.WriteLineAsync($"error: {e.Message}");
                    return ExitCodes.HostUnavailable;
                }
                catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
                {
                    await stderr.WriteLineAsync("error: cancelled while the emulated LAN was made; nothing stored");
                    return ExitCodes.Cancelled;
                }

                scenario = scenario with { Host = lan.HostControlAddress.GetLeftPart(UriPartial.Authority) };
            }

            var topology = lan is null ? RunTopology.Unshaped(scenario.Topology, new Uri(scenario.Host)) : RunTopology.Of(lan);
            // The host's control token (docs/security.md): the emulated LAN's own host was given one; else DASHBOARD_HOST_TOKEN or a local host's file.
            var hostToken = lan?.ControlToken ?? HostToken.For(new Uri(scenario.Host), securityDirectory.FullName);
            return await RunAndReportAsync(scenarioFile, store, levelsCsv, json, scenario, security, drivers, generator, topology, (runId, orderSeed), agentLevels, hostToken, parentGone.Token, cancellationToken);
        }
        finally
        {
            if (lan is not null)
            {
                await lan.DisposeAsync();
            }
        }
    }

    // The scenario field agents (docs/agents.md): resolved against the registry (PostgreSQL mode, each agent online, no
    // more than are online), and every agent must have every client technology of the scenario.
    private static async Task<(IReadOnlyList<string> Names, IReadOnlyDictionary<string, Data.Agents.AgentInfo> Registered)> ResolveAgentsAsync(AgentSelection agents, ScenarioDocument scenario, ResultsStore store, CancellationToken cancellationToken)
    {
        IReadOnlyList<Data.Agents.AgentInfo> registered = [];
        if (store.Provider == StorageProvider.PostgreSql)
        {
            try
            {
                registered = await new Data.Agents.AgentRegistry(store.Target).ListAsync(cancellationToken);
            }
            catch (Npgsql.NpgsqlException e)
            {
                throw new ScenarioException("agents", $"the agents' registry cannot be read: {e.Message}", e);
            }
        }

        var online = registered.Where(a => a.State == Data.Agents.AgentState.Online).ToDictionary(a => a.Name, StringComparer.Ordinal);
        var names = agents.Resolve(online.Keys, store.Provider == StorageProvider.PostgreSql);
        for (var c = 0; c < scenario.Clients.Count; c++)
        {
            var client = scenario.Clients[c];
            var lacking = names.Where(n => !online[n].Technologies.Contains(client, StringComparer.Ordinal)).ToList();
            if (lacking.Count > 0)
            {
                throw new ScenarioException($"clients[{c}]", $"agent(s) {string.Join(", ", lacking.Select(n =>
                    $"'{n}'{(online[n].Unavailable.TryGetValue(client, out var why) ? $" ({why})" : "")}"))} cannot run client '{client}'");
            }
        }

        return (names, online);
    }

    private static async Task<int> RunAndReportAsync(FileInfo scenarioFile, ResultsStore store, FileInfo? levelsCsv, bool json, ScenarioDocument scenario, SecurityFolder? security,
        ClientDriverRegistry drivers, GeneratorProcesses? generator, RunTopology topology, (int? Id, int? OrderSeed) target, Agents.AgentLevels? agentLevels, string? hostToken, CancellationToken parentGone, CancellationToken cancellationToken)
    {
        var runId = target.Id;
        var stderr = Console.Error;
        IReadOnlyList<Service.Contracts.Variants.HostEndpoint> endpoints;
        using var http = HostToken.CreateClient(hostToken);
        try
        {
            await HostProbe.WaitForStacksAsync(http, new Uri(scenario.Host), HostProbe.DefaultStartWait, line => stderr.WriteLine($"note: {line}"), cancellationToken);
            endpoints = await HostProbe.GetEndpointsAsync(http, new Uri(scenario.Host), cancellationToken);
        }
        catch (HostUnavailableException e)
        {
            await stderr.WriteLineAsync($"error: {e.Message}");
            return ExitCodes.HostUnavailable;
        }

        // With JSON progress, the drivers' reports of a running level become level-progress events (about once a second).
        var live = new LiveProgress(json ? WriteJson : WriteLine);
        drivers.Progress.Target = json ? live : null;
        var executor = new BenchmarkExecutor(store, drivers, live.Forward, http, generator, line => stderr.WriteLine($"note: {line}"), security, topology)
        {
            ParentGone = parentGone,
            Agents = agentLevels,
            OrderSeed = target.OrderSeed,
        };
        if (!json)
        {
            // The plan's estimate (the same computation as the dashboard's, docs/web.md "Durations"), to hold the run against;
            // on standard output, since the dashboard reads the runner's last words on stderr as its reason.
            var estimate = DurationEstimator.Default.Estimate(scenario);
            Console.Out.WriteLine(string.Create(System.Globalization.CultureInfo.InvariantCulture,
                $"estimated run time: {estimate.Duration.TotalSeconds:0} s ({estimate.Low?.TotalSeconds ?? estimate.Duration.TotalSeconds:0}–{estimate.High?.TotalSeconds ?? estimate.Duration.TotalSeconds:0} s) from the plan, for an idle 2-core machine"));
        }

        Data.Entities.RunEntity run;
        try
        {
            run = await executor.RunAsync(scenario, endpoints, cancellationToken, runId);
        }
        catch (ScenarioException e)
        {
            await stderr.WriteLineAsync($"error: invalid scenario {scenarioFile.Name}: {e.Message}");
            return ExitCodes.InvalidScenario;
        }

        using var db = store.Open();
        var levels = await db.GetLevelsAsync(run.Id, CancellationToken.None);
        if (levelsCsv is not null)
        {
            await using var writer = new StreamWriter(levelsCsv.FullName);
            Data.Export.LevelsCsv.Write(writer, levels, run);
        }

        if (!json)
        {
            // 18 columns do not fit 80 characters; a narrower console (or a pipe) would wrap every cell.
            AnsiConsole.Profile.Width = Math.Max(AnsiConsole.Profile.Width, 190);
            AnsiConsole.Write(LevelTable.Create(levels));
            AnsiConsole.MarkupLineInterpolated($"run {run.Id}: [bold]{run.Status}[/] ({run.CompletedLevels}/{run.TotalLevels} levels) in {store.Description}");
        }

        if (run.Error is not null)
        {
            await stderr.WriteLineAsync($"error: {run.Error}");
        }

        return run.Status switch
        {
            Data.Entities.RunStatus.Completed => ExitCodes.Success,
            Data.Entities.RunStatus.Cancelled => ExitCodes.Cancelled,
            Data.Entities.RunStatus.Interrupted when parentGone.IsCancellationRequested => ExitCodes.Cancelled,
            _ => ExitCodes.RunFailed,
        };
    }

    private static void WriteJson(ProgressEvent e) => Console.WriteLine(JsonSerializer.Serialize(e, ProgressEvent.JsonOptions));

    private static void WriteLine(ProgressEvent e)
    {
        if (e.Event == ProgressEvents.LevelCompleted)
        {
            AnsiConsole.MarkupLineInterpolated(
                $"[grey][[{e.CompletedLevels}/{e.TotalLevels}]][/] {e.Variant} × {e.Client} × {e.Payload} × {e.Clients} clients: {e.ThroughputRps:0.0} req/s, mean {e.MeanMs:0.000} ms, {e.Errors} errors");
        }
    }

}
