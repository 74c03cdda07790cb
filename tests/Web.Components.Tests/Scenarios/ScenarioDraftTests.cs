using Dashboard.Web.Scenarios;

namespace Dashboard.Web.Components.Tests.Scenarios;

/// <summary>The New run page's draft: its field errors in the page's terms.</summary>
public sealed class ScenarioDraftTests
{
    [Theory]
    [InlineData("levels[2]", "Concurrency level 3")]
    [InlineData("variants[0]", "Endpoint variant 1")]
    [InlineData("requestsPerClient", "Requests per client")]
    [InlineData("duration", "Measured time per level")]
    [InlineData("clients", "Client technologies")]
    [InlineData("somethingElse", "somethingElse")]
    public void FieldLabel_JsonField_LabelOfThePage(string field, string expected) => Assert.Equal(expected, ScenarioDraft.FieldLabel(field));

    [Fact]
    public void Validate_ZeroRequestsAndNoVariant_BothNamedInTheirFields()
    {
        var draft = new ScenarioDraft { Name = "x", Host = "http://localhost:5090", RequestsPerClient = 0 };
        draft.Clients.Add("dotnet");
        draft.Payloads.Add("Int");

        var errors = draft.Validate();

        Assert.StartsWith("Requests per client: 0 is out of range", Assert.Single(errors["requestsPerClient"]), StringComparison.Ordinal);
        Assert.StartsWith("Endpoint variants: choose at least one", Assert.Single(errors["variants"]), StringComparison.Ordinal);
        Assert.Equal(0, draft.ToDocument().RequestsPerClient);
    }
}
