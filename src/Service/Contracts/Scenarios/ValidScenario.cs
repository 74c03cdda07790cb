namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// A scenario document that passed validation, with its canonical JSON: only <see cref="ScenarioLoader"/> makes one
/// (<see cref="ScenarioLoader.ParseValid"/>, <see cref="ScenarioLoader.Valid"/>), so whoever takes one (the queue) never
/// validates it again. The dashboard stores <see cref="Json"/> with the run; the runner parses and validates it once
/// more, in its own process, at start.
/// </summary>
public sealed class ValidScenario
{
    internal ValidScenario(ScenarioDocument document)
    {
        Document = document;
        Json = ScenarioLoader.ToJson(document);
    }

    /// <summary>The validated document.</summary>
    public ScenarioDocument Document { get; }

    /// <summary>The document as canonical JSON (<see cref="ScenarioLoader.ToJson"/>), as stored with a run.</summary>
    public string Json { get; }

    /// <summary>The scenario's name.</summary>
    public string Name => Document.Name;
}
