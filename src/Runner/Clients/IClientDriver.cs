using Dashboard.Runner.Load;
using Dashboard.Service.Contracts.Payloads;
using Dashboard.Service.Contracts.Variants;

namespace Dashboard.Runner.Clients;

/// <summary>A client technology (docs/driver-protocol.md, "Client technologies"): runs the levels of one cell (variant × client × payload) against an endpoint.</summary>
public interface IClientDriver
{
    /// <summary>The client technology id this driver implements (<c>dotnet</c>, <c>java</c>, <c>node</c>).</summary>
    string ClientId { get; }

    /// <summary>
    /// Opens a session for one cell: <paramref name="endpoint"/> as the host listed it, calling <paramref name="payload"/>,
    /// with the CA and credentials of <paramref name="security"/> (null or <see cref="ClientSecurity.None"/> for unsecure variants).
    /// </summary>
    /// <exception cref="LoadClientException">This client cannot use the endpoint, or its driver process cannot start; the message says why.</exception>
    Task<ICellSession> OpenCellAsync(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security, CancellationToken cancellationToken);
}

/// <summary>Shorthands of <see cref="IClientDriver"/>.</summary>
public static class ClientDriverExtensions
{
    /// <summary>Opens a cell of an unsecure variant (no CA, no credentials).</summary>
    public static Task<ICellSession> OpenCellAsync(this IClientDriver driver, HostEndpoint endpoint, PayloadCase payload, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(driver);
        return driver.OpenCellAsync(endpoint, payload, null, cancellationToken);
    }
}

/// <summary>One cell's driver, kept for all its levels and repetitions (a driver process stays warm across them).</summary>
public interface ICellSession : IAsyncDisposable
{
    /// <summary>Runs one level and returns its samples (warm-up included, flagged).</summary>
    /// <exception cref="LoadClientException">The level could not run (no client could connect, the driver died); the message says why.</exception>
    Task<LevelResult> RunLevelAsync(LevelPlan plan, CancellationToken cancellationToken);
}

/// <summary>
/// A client technology whose clients run in the runner's process, on the <see cref="ClosedLoopEngine"/> (closed levels)
/// or the <see cref="OpenLoopEngine"/> (open levels: a plan with <see cref="LevelPlan.RateRps"/>).
/// </summary>
public abstract class InProcessClientDriver : IClientDriver
{
    /// <inheritdoc />
    public abstract string ClientId { get; }

    /// <summary>Creates the factory of one cell's clients; <paramref name="security"/> carries the CA and credentials of secure variants.</summary>
    /// <exception cref="LoadClientException">The endpoint's address or transport cannot be used by this client, or its CA or credentials are missing or unreadable.</exception>
    public abstract ILoadClientFactory CreateFactory(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security = null);

    /// <summary>Where the running levels' progress goes (about once a second); null: nowhere.</summary>
    public ILevelProgressSink? Progress { get; init; }

    /// <inheritdoc />
    public Task<ICellSession> OpenCellAsync(HostEndpoint endpoint, PayloadCase payload, ClientSecurity? security, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(endpoint);
        ArgumentNullException.ThrowIfNull(payload);
        return Task.FromResult<ICellSession>(new EngineSession(CreateFactory(endpoint, payload, security), Progress, endpoint.Name, ClientId, payload.Id));
    }

    private sealed class EngineSession(ILoadClientFactory factory, ILevelProgressSink? sink, string variant, string client, string payload) : ICellSession
    {
        public Task<LevelResult> RunLevelAsync(LevelPlan plan, CancellationToken cancellationToken)
        {
            // An open level (a rate) is reported at its rate, a closed one at its clients, as the level's value.
            Action<long, double>? report = sink is null ? null
                : (requests, rate) => sink.Report(variant, client, payload, plan.RateRps ?? plan.Clients, requests, null, rate);
            return plan.RateRps is null
                ? ClosedLoopEngine.RunLevelAsync(factory, plan, cancellationToken, report)
                : OpenLoopEngine.RunLevelAsync(factory, plan, cancellationToken, report);
        }

        public ValueTask DisposeAsync() => factory.DisposeAsync();
    }
}

/// <summary>The client drivers this build has, and why the others are missing.</summary>
public sealed class ClientDriverRegistry
{
    /// <summary>The per-request timeout of every driver unless told otherwise (the runner's <c>--request-timeout</c> default, an agent's), in seconds.</summary>
    public const int DefaultRequestTimeoutSeconds = 30;

    private readonly Dictionary<string, IClientDriver> _drivers;
    private readonly Dictionary<string, string> _unavailable;

    /// <summary>Creates the registry from the drivers available in this build, and why others are not.</summary>
    /// <param name="drivers">The drivers that can run.</param>
    /// <param name="unavailable">Client id → one line saying why its driver cannot run (e.g. not built).</param>
    public ClientDriverRegistry(IEnumerable<IClientDriver> drivers, IReadOnlyDictionary<string, string>? unavailable = null)
    {
        _drivers = drivers.ToDictionary(d => d.ClientId, StringComparer.Ordinal);
        _unavailable = new Dictionary<string, string>(unavailable ?? new Dictionary<string, string>(), StringComparer.Ordinal);
    }

    /// <summary>The registry of this build: <c>dotnet</c>, <c>wcf</c> and the <c>lean</c> generator in process, <c>java</c> and <c>node</c> when their drivers are built.</summary>
    /// <param name="requestTimeout">Per-request timeout of every driver.</param>
    /// <param name="generator">Where driver processes are registered while they run (generator CPU).</param>
    public static ClientDriverRegistry CreateDefault(TimeSpan requestTimeout, Load.GeneratorProcesses? generator = null)
    {
        var relay = new LevelProgressRelay();
        var drivers = new List<IClientDriver>
        {
            new DotNet.DotNetDriver(requestTimeout) { Progress = relay },
            new Wcf.WcfDriver(requestTimeout) { Progress = relay },
            new Lean.LeanDriver(requestTimeout) { Progress = relay },
        };
        var unavailable = new Dictionary<string, string>();
        foreach (var command in new[] { External.DriverCommand.Java(), External.DriverCommand.Node() })
        {
            if (command.MissingReason is { } reason)
            {
                unavailable[command.ClientId] = reason;
            }
            else
            {
                drivers.Add(new External.ExternalProcessDriver(command, requestTimeout, generator) { Progress = relay });
            }
        }

        return new ClientDriverRegistry(drivers, unavailable) { Progress = relay };
    }

    /// <summary>
    /// Where this registry's drivers report their running levels (<see cref="ILevelProgressSink"/>); point its
    /// <see cref="LevelProgressRelay.Target"/> at the run's progress output.
    /// </summary>
    public LevelProgressRelay Progress { get; init; } = new();

    /// <summary>The client technologies this registry can run, by id.</summary>
    public IReadOnlyList<string> Available => [.. _drivers.Keys.Order(StringComparer.Ordinal)];

    /// <summary>Client technology → why this build (or machine) cannot run it.</summary>
    public IReadOnlyDictionary<string, string> Unavailable => _unavailable;

    /// <summary>The driver for <paramref name="clientId"/>.</summary>
    /// <exception cref="ClientUnavailableException">This build has no driver for it; the message says why.</exception>
    public IClientDriver Get(string clientId) =>
        _drivers.TryGetValue(clientId, out var driver) ? driver
            : throw new ClientUnavailableException(clientId, _unavailable.GetValueOrDefault(clientId) ?? "unknown client technology");
}

/// <summary>A scenario names a client technology this build cannot run; the message is one line.</summary>
public sealed class ClientUnavailableException : Exception
{
    /// <summary>Creates the error for <paramref name="clientId"/> with the <paramref name="reason"/>.</summary>
    public ClientUnavailableException(string clientId, string reason)
        : base($"client technology '{clientId}' is not available in this build: {reason}")
    {
        ClientId = clientId;
    }

    /// <summary>The client technology id.</summary>
    public string ClientId { get; }
}
