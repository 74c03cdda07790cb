using Dashboard.Web.Components.Shared;

// Folder Components/Shared mirrors the source; the namespace stops one level up (CA1716: "Shared" is a VB keyword).
namespace Dashboard.Web.Components.Tests.Components;

/// <summary>The run's environment panel: how busy the machine was as the run started (issue #32), when recorded.</summary>
public sealed class RunEnvironmentPanelTests
{
    [Fact]
    public void Rows_MachineAtStartRecordedOrNot_RowWithItsSummaryOnlyWhenRecorded()
    {
        const string busy = """{"runtime":".NET 10.0.0","machineAtStart":{"loadAverage1":3.5,"othersCores":0.8,"stealPercent":0,"busy":true,"summary":"1-minute load average 3.50 (limit 1.0)"}}""";

        Assert.Contains(RunEnvironmentPanel.Rows(busy), r => r == ("Machine at start", "busy: 1-minute load average 3.50 (limit 1.0)"));
        Assert.DoesNotContain(RunEnvironmentPanel.Rows("""{"runtime":".NET 10.0.0"}"""), r => r.Label == "Machine at start");
    }
}
