namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// A scenario document was refused. <see cref="Field"/> names the offending field in JSON terms
/// (e.g. <c>levels[2]</c>), and <see cref="Exception.Message"/> is one line a person can act on: <c>field: reason</c>,
/// whatever the document held (control characters are escaped, unpaired surrogates replaced, long text cut; see
/// <see cref="ScenarioText"/>).
/// </summary>
public sealed class ScenarioException : Exception
{
    private readonly IReadOnlyList<(string Field, string Message)> _problems = [];

    /// <summary>Creates the error for <paramref name="field"/> with a one-line <paramref name="message"/>.</summary>
    public ScenarioException(string field, string message, Exception? inner = null)
        : base(ScenarioText.Shown($"{OneLineField(field)}: {message}", ScenarioText.MaxMessage), inner)
    {
        Field = OneLineField(field);
    }

    /// <summary>Every problem found, when several fields are wrong; the first is also <see cref="Field"/>. Each is one line, as <see cref="Exception.Message"/>.</summary>
    public IReadOnlyList<(string Field, string Message)> Problems
    {
        get => _problems;
        init => _problems = value.Select(p => (OneLineField(p.Field), ScenarioText.Shown(p.Message, ScenarioText.MaxMessage))).ToArray();
    }

    /// <summary>The JSON path of the offending field, e.g. <c>variants[1]</c>, or <c>scenario</c> for the whole document.</summary>
    public string Field { get; }

    private static string OneLineField(string? field) => string.IsNullOrEmpty(field) ? "scenario" : ScenarioText.Shown(field, 100);
}
