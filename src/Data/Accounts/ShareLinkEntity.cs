namespace Dashboard.Data.Accounts;

/// <summary>
/// A read-only share link of a run page or a compare view: the SHA-256 of its secret and the runs it opens, for readers
/// without an account (docs/security.md, "Share links").
/// </summary>
public sealed class ShareLinkEntity
{
    /// <summary>Key.</summary>
    public int Id { get; set; }

    /// <summary>Lower-case hex SHA-256 of the link's secret; unique.</summary>
    public string Hash { get; set; } = "";

    /// <summary>The runs it opens, comma-separated ids ("3", or "3,5" for a compare view), in the order shown.</summary>
    public string RunIds { get; set; } = "";

    /// <summary>Who made it.</summary>
    public string CreatedBy { get; set; } = "";

    /// <summary>When it was made (UTC).</summary>
    public DateTime CreatedUtc { get; set; }

    /// <summary>When it was revoked (UTC); null: it works.</summary>
    public DateTime? RevokedUtc { get; set; }
}
