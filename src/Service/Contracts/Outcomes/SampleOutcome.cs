namespace Dashboard.Service.Contracts.Outcomes;

/// <summary>
/// How a request ended. Stored as its integer value; never renumber.
/// Error kinds follow docs/statistics.md: timeout, fault, connection, plus authentication (issue #4).
/// </summary>
public enum SampleOutcome : byte
{
    /// <summary>The reply arrived and matched what was sent.</summary>
    Success = 0,

    /// <summary>The call did not complete within the client's timeout.</summary>
    Timeout = 1,

    /// <summary>The service answered with an error (SOAP fault, HTTP error status) or with a body that does not parse.</summary>
    Fault = 2,

    /// <summary>The connection could not be opened or was lost.</summary>
    Connection = 3,

    /// <summary>The service refused the client's credentials.</summary>
    Authentication = 4,

    /// <summary>Any other failure.</summary>
    Other = 5,

    /// <summary>The reply parsed but is not what the payload case expects (e.g. an echo that differs from what was sent).</summary>
    WrongReply = 6,
}
