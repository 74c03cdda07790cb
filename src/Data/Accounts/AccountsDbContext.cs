using Microsoft.EntityFrameworkCore;

namespace Dashboard.Data.Accounts;

/// <summary>
/// The dashboard's accounts in the results database (SQLite or PostgreSQL, the same store as <see cref="ResultsDbContext"/>):
/// users, API tokens, one-time setup links, share links and the audit log. A context of its own with its own migrations history table
/// (<see cref="MigrationsHistoryTable"/>), so the results' model and migrations stay as they are; its migrations live in
/// <c>Dashboard.Migrations</c> beside the results' ones. Open it with <see cref="AccountsStore.OpenAccounts"/>.
/// </summary>
public class AccountsDbContext(DbContextOptions<AccountsDbContext> options) : DbContext(options)
{
    /// <summary>The migrations history table of this context.</summary>
    public const string MigrationsHistoryTable = "__AccountsMigrationsHistory";

    /// <summary>Accounts.</summary>
    public DbSet<UserEntity> Users => Set<UserEntity>();

    /// <summary>API tokens (hashed).</summary>
    public DbSet<ApiTokenEntity> ApiTokens => Set<ApiTokenEntity>();

    /// <summary>One-time setup links (hashed).</summary>
    public DbSet<SetupLinkEntity> SetupLinks => Set<SetupLinkEntity>();

    /// <summary>Read-only share links (hashed).</summary>
    public DbSet<ShareLinkEntity> ShareLinks => Set<ShareLinkEntity>();

    /// <summary>The audit log.</summary>
    public DbSet<AuditEventEntity> AuditEvents => Set<AuditEventEntity>();

    /// <inheritdoc />
    protected override void ConfigureConventions(ModelConfigurationBuilder configurationBuilder)
    {
        ArgumentNullException.ThrowIfNull(configurationBuilder);
        configurationBuilder.Properties<DateTime>().HaveConversion<UtcDateTimeConverter>();
    }

    /// <inheritdoc />
    protected override void OnModelCreating(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);
        modelBuilder.Entity<UserEntity>(e =>
        {
            e.ToTable("Users");
            e.HasIndex(u => u.NormalizedUserName).IsUnique();
            e.HasIndex(u => u.ExternalLogin).IsUnique();
        });
        modelBuilder.Entity<ApiTokenEntity>(e =>
        {
            e.ToTable("ApiTokens");
            e.HasIndex(t => t.Hash).IsUnique();
        });
        modelBuilder.Entity<SetupLinkEntity>(e =>
        {
            e.ToTable("SetupLinks");
            e.HasIndex(l => l.Hash).IsUnique();
        });
        modelBuilder.Entity<ShareLinkEntity>(e =>
        {
            e.ToTable("ShareLinks");
            e.HasIndex(s => s.Hash).IsUnique();
        });
        modelBuilder.Entity<AuditEventEntity>(e =>
        {
            e.ToTable("AuditEvents");
            e.HasIndex(a => a.TimeUtc);
        });
    }
}
