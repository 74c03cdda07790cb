using Microsoft.Data.Sqlite;

namespace Dashboard.Data.Tests.Support;

/// <summary>Plain SQL for assertions that must not go through EF Core.</summary>
internal static class Sql
{
    public static List<T> Query<T>(SqliteConnection connection, string sql)
    {
        using var command = connection.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        var values = new List<T>();
        while (reader.Read())
        {
            values.Add(reader.GetFieldValue<T>(0));
        }

        return values;
    }
}
