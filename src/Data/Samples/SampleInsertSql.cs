using System.Globalization;
using System.Text;
using Dashboard.Data.Measurement;

namespace Dashboard.Data.Samples;

/// <summary>
/// SQL of the multi-row sample insert, and the packing of a sample's small fields into one bound value.
/// </summary>
/// <remarks>
/// Binding is half the cost of an insert through SQLite's C API, so each row binds four values:
/// <c>StartOffsetUs</c>, <c>LatencyUs</c>, <see cref="PackSmallFields"/> (client index, outcome and
/// warm-up flag) and <see cref="PackWireBytes"/> (request and response bytes), which the statement unpacks
/// into their own columns with shifts and masks.
/// Parameter 1 is the level id, shared by every row of a statement.
/// </remarks>
internal static class SampleInsertSql
{
    /// <summary>Number of parameters bound per row.</summary>
    internal const int ParametersPerRow = 4;

    private const int OutcomeShift = 1;
    private const int ClientIndexShift = 9;

    /// <summary>
    /// <c>INSERT INTO Samples (...) VALUES (...),(...),...</c> with <paramref name="rows"/> rows and
    /// positional parameters <c>?1</c> (level id), then <see cref="ParametersPerRow"/> per row.
    /// </summary>
    internal static string Insert(int rows)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(rows, 1);
        var sql = new StringBuilder(
            "INSERT INTO \"Samples\" (\"LevelId\", \"ClientIndex\", \"StartOffsetUs\", \"LatencyUs\", \"Outcome\", \"IsWarmup\", \"RequestBytes\", \"ResponseBytes\") VALUES ");
        for (var row = 0; row < rows; row++)
        {
            var packed = 2 + (row * ParametersPerRow);
            sql.Append(row == 0 ? "" : ",").Append(CultureInfo.InvariantCulture,
                $"(?1, ?{packed} >> {ClientIndexShift}, ?{packed + 1}, ?{packed + 2}, (?{packed} >> {OutcomeShift}) & 255, ?{packed} & 1, (?{packed + 3} >> 32) - 1, (?{packed + 3} & 4294967295) - 1)");
        }

        return sql.ToString();
    }

    /// <summary>
    /// Client index in bits 9 and up (sign kept: SQLite's <c>&gt;&gt;</c> is arithmetic), outcome in
    /// bits 1–8, warm-up flag in bit 0.
    /// </summary>
    internal static long PackSmallFields(in Sample sample) =>
        ((long)sample.ClientIndex << ClientIndexShift)
        | ((long)(byte)sample.Outcome << OutcomeShift)
        | (sample.IsWarmup ? 1L : 0L);

    /// <summary>
    /// Request bytes + 1 in bits 32 and up, response bytes + 1 in bits 0–31 (so -1, "unknown", packs as 0);
    /// both are at least -1 and below 2^31.
    /// </summary>
    internal static long PackWireBytes(in Sample sample) =>
        ((long)(sample.RequestBytes + 1) << 32) | (uint)(sample.ResponseBytes + 1);
}
