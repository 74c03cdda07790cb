namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// A scenario document was refused. <see cref="Field"/> names the offending field in JSON terms
/// (e.g. <c>levels[2]</c>), and <see cref="Exception.Message"/> is one line a person can act on.
/// </summary>
public sealed class ScenarioException : Exception
{
    /// <summary>Creates the error for <paramref name="field"/> with a one-line <paramref name="message"/>.</summary>
    public ScenarioException(string field, string message, Exception? inner = null)
        : base($"{field}: {message}", inner)
    {
        Field = field;
    }

    /// <summary>Every problem found, when several fields are wrong; the first is also <see cref="Field"/>.</summary>
    public IReadOnlyList<(string Field, string Message)> Problems { get; init; } = [];

    /// <summary>The JSON path of the offending field, e.g. <c>variants[1]</c>, or <c>scenario</c> for the whole document.</summary>
    public string Field { get; }
}
