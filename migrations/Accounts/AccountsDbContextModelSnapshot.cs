using Dashboard.Data.Accounts;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Infrastructure;
using Npgsql.EntityFrameworkCore.PostgreSQL.Metadata;

namespace Dashboard.Migrations.Accounts;

/// <summary>
/// <see cref="AccountsDbContext"/>'s model as of its latest migration, written by hand like
/// <see cref="ResultsDbContextModelSnapshot"/> (no store types). Update it with every accounts migration.
/// </summary>
[DbContext(typeof(AccountsDbContext))]
public class AccountsDbContextModelSnapshot : ModelSnapshot
{
    private const string NpgsqlIdentity = Initial.NpgsqlIdentity;

    /// <inheritdoc />
    protected override void BuildModel(ModelBuilder modelBuilder)
    {
        ArgumentNullException.ThrowIfNull(modelBuilder);
        modelBuilder.HasAnnotation("ProductVersion", "10.0.14");

        modelBuilder.Entity("Dashboard.Data.Accounts.ApiTokenEntity", b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<string>("CreatedBy").IsRequired();
            b.Property<DateTime>("CreatedUtc");
            b.Property<DateTime?>("ExpiresUtc");
            b.Property<string>("Hash").IsRequired();
            b.Property<string>("Name").IsRequired();
            b.Property<DateTime?>("RevokedUtc");
            b.Property<string>("Role").IsRequired();
            b.HasKey("Id");
            b.HasIndex("Hash").IsUnique();
            b.ToTable("ApiTokens");
        });

        modelBuilder.Entity("Dashboard.Data.Accounts.AuditEventEntity", b =>
        {
            b.Property<long>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<string>("Action").IsRequired();
            b.Property<string>("Actor").IsRequired();
            b.Property<string>("Target").IsRequired();
            b.Property<DateTime>("TimeUtc");
            b.HasKey("Id");
            b.HasIndex("TimeUtc");
            b.ToTable("AuditEvents");
        });

        modelBuilder.Entity("Dashboard.Data.Accounts.SetupLinkEntity", b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<DateTime>("CreatedUtc");
            b.Property<DateTime>("ExpiresUtc");
            b.Property<string>("Hash").IsRequired();
            b.Property<string>("Role").IsRequired();
            b.Property<DateTime?>("UsedUtc");
            b.Property<string>("UserName");
            b.HasKey("Id");
            b.HasIndex("Hash").IsUnique();
            b.ToTable("SetupLinks");
        });

        modelBuilder.Entity("Dashboard.Data.Accounts.ShareLinkEntity", b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<string>("CreatedBy").IsRequired();
            b.Property<DateTime>("CreatedUtc");
            b.Property<string>("Hash").IsRequired();
            b.Property<DateTime?>("RevokedUtc");
            b.Property<string>("RunIds").IsRequired();
            b.HasKey("Id");
            b.HasIndex("Hash").IsUnique();
            b.ToTable("ShareLinks");
        });

        modelBuilder.Entity("Dashboard.Data.Accounts.UserEntity", b =>
        {
            b.Property<int>("Id").ValueGeneratedOnAdd().HasAnnotation(NpgsqlIdentity, NpgsqlValueGenerationStrategy.IdentityByDefaultColumn);
            b.Property<int>("AccessFailedCount");
            b.Property<DateTime>("CreatedUtc");
            b.Property<string>("ExternalLogin");
            b.Property<DateTime?>("LockoutEndUtc");
            b.Property<string>("NormalizedUserName").IsRequired();
            b.Property<string>("PasswordHash");
            b.Property<string>("Role").IsRequired();
            b.Property<string>("SecurityStamp").IsRequired();
            b.Property<string>("UserName").IsRequired();
            b.HasKey("Id");
            b.HasIndex("ExternalLogin").IsUnique();
            b.HasIndex("NormalizedUserName").IsUnique();
            b.ToTable("Users");
        });
    }
}
