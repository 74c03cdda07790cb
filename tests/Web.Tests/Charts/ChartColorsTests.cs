using Dashboard.Web.Charts;

namespace Dashboard.Web.Tests.Charts;

public sealed class ChartColorsTests
{
    [Fact]
    public void Assign_SameKeyInDifferentSets_SameColourUnlessTaken()
    {
        var alone = ChartColors.Assign(["MetroSoap11 × java"]);
        var withOthers = ChartColors.Assign(["IceTcp × java", "MetroSoap11 × java", "AspNetHttpJson × dotnet"]);

        Assert.Equal(ChartColors.Palette[ChartColors.PreferredIndex("MetroSoap11 × java")], alone["MetroSoap11 × java"]);
        Assert.Equal(3, withOthers.Values.Distinct().Count());
    }

    [Fact]
    public void Assign_OrderGiven_DoesNotChangeColours()
    {
        string[] keys = ["a × b", "c × d", "e × f", "g × h", "i × j"];

        Assert.Equal(ChartColors.Assign(keys), ChartColors.Assign(keys.Reverse()));
    }
}
