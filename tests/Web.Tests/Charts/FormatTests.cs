using Dashboard.Data.Measurement;
using Dashboard.Web.Charts;

namespace Dashboard.Web.Tests.Charts;

public class FormatTests
{
    [Fact]
    public void WithCi_TwoRepetitions_MeanAloneNoZeroWidthInterval()
    {
        var estimate = Estimate.Of([2115.3, 6210.9]);

        // With 2 repetitions there is no interval (Estimate.HasInterval); printing "[mean, mean]" would claim a certainty
        // the data does not have (seen on the run page: "5034.0 [5034.0, 5034.0]").
        Assert.Equal("4163.1", Format.WithCi(estimate, "0.0"));
    }

    [Fact]
    public void WithCi_ThreeRepetitions_MeanAndItsInterval()
    {
        var estimate = Estimate.Of([1000, 1010, 990]);

        var text = Format.WithCi(estimate, "0.0");

        Assert.Equal($"1000.0 [{estimate.Low95:0.0}, {estimate.High95:0.0}]", text);
        Assert.True(estimate.Low95 < 1000 && estimate.High95 > 1000);
    }
}
