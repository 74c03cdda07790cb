using Dashboard.Data.Results;
using Dashboard.Service.Contracts.Payloads;

namespace Dashboard.Data.Claims;

/// <summary>
/// Seed 002's overhead per message (Table I, "Overhead"): bytes on the wire beyond the payload's own bytes
/// (<see cref="PayloadOwnBytes"/>), for the request, the response and their mean (the "average overhead of the sent
/// messages").
/// </summary>
/// <param name="RequestBytes">Mean request bytes on the wire minus the request's own bytes.</param>
/// <param name="ResponseBytes">Mean response bytes on the wire minus the reply's own bytes.</param>
/// <param name="OwnBytes">The payload case's own bytes.</param>
public sealed record MessageOverhead(double RequestBytes, double ResponseBytes, PayloadOwnBytes OwnBytes)
{
    /// <summary>Overhead per message: the mean of the request's and the response's overhead, in bytes.</summary>
    public double PerMessageBytes => (RequestBytes + ResponseBytes) / 2;

    /// <summary>
    /// The overhead of <paramref name="level"/>; null when its client did not count wire bytes or the payload
    /// catalogue does not list its payload.
    /// </summary>
    /// <exception cref="ArgumentNullException"><paramref name="level"/> is null.</exception>
    public static MessageOverhead? Of(LevelAggregate level)
    {
        ArgumentNullException.ThrowIfNull(level);
        return level is { MeanRequestBytes: { } request, MeanResponseBytes: { } response } && PayloadOwnBytes.Of(level.Payload) is { } own
            ? new MessageOverhead(request - own.Request, response - own.Response, own)
            : null;
    }
}
