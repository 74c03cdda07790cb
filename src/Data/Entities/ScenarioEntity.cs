namespace Dashboard.Data.Entities;

/// <summary>A saved scenario: its JSON document (README.md, "Scenario document") under a name.</summary>
public class ScenarioEntity
{
    /// <summary>Primary key, assigned by the database.</summary>
    public int Id { get; set; }

    /// <summary>Display name of the scenario.</summary>
    public required string Name { get; set; }

    /// <summary>The scenario document as JSON, exactly as the user saved it.</summary>
    public required string DocumentJson { get; set; }

    /// <summary>When the scenario was first saved (UTC).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>When the scenario was last saved (UTC).</summary>
    public DateTime UpdatedUtc { get; set; }
}
