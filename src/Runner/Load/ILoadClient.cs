using Dashboard.Data.Measurement;
using Dashboard.Service.Contracts.Outcomes;

namespace Dashboard.Runner.Load;

/// <summary>
/// One closed-loop client of a level: its own connection (channel, proxy, socket), calling one payload case
/// of one endpoint variant. Implementations keep no lock shared with other clients on the call path.
/// </summary>
public interface ILoadClient : IAsyncDisposable
{
    /// <summary>Opens the client's own connection. Called once, before the level's clock starts.</summary>
    /// <exception cref="LoadClientException">The endpoint cannot be reached; the message says why, in one line.</exception>
    ValueTask OpenAsync(CancellationToken cancellationToken);

    /// <summary>
    /// Sends one request, waits for the whole reply and checks it. Request failures are classified, not thrown:
    /// the result's outcome is <see cref="SampleOutcome.Success"/> or the kind of error. Throws only
    /// <see cref="OperationCanceledException"/> when <paramref name="cancellationToken"/> is cancelled.
    /// </summary>
    ValueTask<CallResult> CallAsync(CancellationToken cancellationToken);
}

/// <summary>How one call ended, and its bytes on the wire.</summary>
/// <param name="Outcome">Success or the kind of error.</param>
/// <param name="RequestBytes">Request bytes as they crossed the socket (headers and framing included), or -1 when not counted.</param>
/// <param name="ResponseBytes">Response bytes as they crossed the socket, or -1 when not counted.</param>
public readonly record struct CallResult(SampleOutcome Outcome, int RequestBytes = Sample.UnknownBytes, int ResponseBytes = Sample.UnknownBytes)
{
    /// <summary>A result with an outcome and no byte counts.</summary>
    public static implicit operator CallResult(SampleOutcome outcome) => new(outcome);

    /// <summary>A result with an outcome and no byte counts.</summary>
    public static CallResult FromSampleOutcome(SampleOutcome outcome) => new(outcome);
}

/// <summary>Creates the clients of one cell (variant × client technology × payload).</summary>
public interface ILoadClientFactory : IAsyncDisposable
{
    /// <summary>Creates client number <paramref name="clientIndex"/> (zero-based); not yet opened.</summary>
    ILoadClient CreateClient(int clientIndex);
}

/// <summary>A client could not be created or opened; the message is one line naming the endpoint and the reason.</summary>
public sealed class LoadClientException : Exception
{
    /// <summary>Creates the error with its one-line <paramref name="message"/>.</summary>
    public LoadClientException(string message, Exception? inner = null)
        : base(message, inner)
    {
    }

    /// <summary>
    /// When a level was running as the client failed (a driver process died or wrote <c>fail</c> mid-level): the samples
    /// it handed over before, with <see cref="LevelResult.Cancelled"/> false; null when no level was running. The runner
    /// stores a non-empty one as a partial level (docs/statistics.md, "Partial levels").
    /// </summary>
    public LevelResult? PartialLevel { get; init; }
}
