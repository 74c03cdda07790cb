using Microsoft.EntityFrameworkCore.Storage.ValueConversion;

namespace Dashboard.Data;

/// <summary>
/// Stores <see cref="DateTime"/> values as UTC and reads them back with <see cref="DateTimeKind.Utc"/>
/// (SQLite keeps no kind; PostgreSQL's <c>timestamp with time zone</c> takes only UTC values). Local times are
/// converted to UTC on write; unspecified ones are taken as UTC.
/// </summary>
internal sealed class UtcDateTimeConverter() : ValueConverter<DateTime, DateTime>(
    value => value.Kind == DateTimeKind.Local ? value.ToUniversalTime() : DateTime.SpecifyKind(value, DateTimeKind.Utc),
    value => DateTime.SpecifyKind(value, DateTimeKind.Utc));
