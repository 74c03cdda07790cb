using System.Data.Common;
using Microsoft.EntityFrameworkCore.Diagnostics;

namespace Dashboard.Data;

/// <summary>
/// Puts every connection EF Core opens into <c>journal_mode=WAL</c> (persistent per file; a no-op
/// once set) with <c>synchronous=NORMAL</c> (per connection).
/// </summary>
internal sealed class SqlitePragmaInterceptor : DbConnectionInterceptor
{
    /// <summary>The statements run on every opened connection.</summary>
    internal const string PragmaSql = "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;";

    public override void ConnectionOpened(DbConnection connection, ConnectionEndEventData eventData)
    {
        using var command = connection.CreateCommand();
        command.CommandText = PragmaSql;
        command.ExecuteNonQuery();
    }

    public override async Task ConnectionOpenedAsync(
        DbConnection connection, ConnectionEndEventData eventData, CancellationToken cancellationToken = default)
    {
        await using var command = connection.CreateCommand();
        command.CommandText = PragmaSql;
        await command.ExecuteNonQueryAsync(cancellationToken);
    }
}
