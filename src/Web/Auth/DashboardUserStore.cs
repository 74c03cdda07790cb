using Dashboard.Data.Accounts;
using Microsoft.AspNetCore.Identity;
using Microsoft.EntityFrameworkCore;

namespace Dashboard.Web.Auth;

/// <summary>
/// ASP.NET Core Identity's store of <see cref="UserEntity"/> on <see cref="AccountsDbContext"/>: names, password hashes,
/// security stamps and lockout (so <see cref="UserManager{TUser}"/> hashes passwords, counts wrong ones and locks out).
/// The role is a column of the user (one of <see cref="DashboardRoles"/>), not Identity's role tables.
/// </summary>
public sealed class DashboardUserStore(IDbContextFactory<AccountsDbContext> contexts) :
    IUserPasswordStore<UserEntity>, IUserSecurityStampStore<UserEntity>, IUserLockoutStore<UserEntity>
{
    /// <inheritdoc />
    public async Task<IdentityResult> CreateAsync(UserEntity user, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(user);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        if (await db.Users.AnyAsync(u => u.NormalizedUserName == user.NormalizedUserName, cancellationToken))
        {
            return IdentityResult.Failed(new IdentityError { Code = "DuplicateUserName", Description = $"User '{user.UserName}' exists already." });
        }

        db.Users.Add(user);
        await db.SaveChangesAsync(cancellationToken);
        return IdentityResult.Success;
    }

    /// <inheritdoc />
    public async Task<IdentityResult> UpdateAsync(UserEntity user, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(user);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        db.Users.Update(user);
        await db.SaveChangesAsync(cancellationToken);
        return IdentityResult.Success;
    }

    /// <inheritdoc />
    public async Task<IdentityResult> DeleteAsync(UserEntity user, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(user);
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        await db.Users.Where(u => u.Id == user.Id).ExecuteDeleteAsync(cancellationToken);
        return IdentityResult.Success;
    }

    /// <inheritdoc />
    public async Task<UserEntity?> FindByIdAsync(string userId, CancellationToken cancellationToken)
    {
        if (!int.TryParse(userId, out var id))
        {
            return null;
        }

        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Users.AsNoTracking().SingleOrDefaultAsync(u => u.Id == id, cancellationToken);
    }

    /// <inheritdoc />
    public async Task<UserEntity?> FindByNameAsync(string normalizedUserName, CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Users.AsNoTracking().SingleOrDefaultAsync(u => u.NormalizedUserName == normalizedUserName, cancellationToken);
    }

    /// <inheritdoc />
    public Task<string> GetUserIdAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(user.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));

    /// <inheritdoc />
    public Task<string?> GetUserNameAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult<string?>(user.UserName);

    /// <inheritdoc />
    public Task SetUserNameAsync(UserEntity user, string? userName, CancellationToken cancellationToken) => Set(() => user.UserName = userName ?? "");

    /// <inheritdoc />
    public Task<string?> GetNormalizedUserNameAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult<string?>(user.NormalizedUserName);

    /// <inheritdoc />
    public Task SetNormalizedUserNameAsync(UserEntity user, string? normalizedName, CancellationToken cancellationToken) => Set(() => user.NormalizedUserName = normalizedName ?? "");

    /// <inheritdoc />
    public Task SetPasswordHashAsync(UserEntity user, string? passwordHash, CancellationToken cancellationToken) => Set(() => user.PasswordHash = passwordHash);

    /// <inheritdoc />
    public Task<string?> GetPasswordHashAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(user.PasswordHash);

    /// <inheritdoc />
    public Task<bool> HasPasswordAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(user.PasswordHash is not null);

    /// <inheritdoc />
    public Task SetSecurityStampAsync(UserEntity user, string stamp, CancellationToken cancellationToken) => Set(() => user.SecurityStamp = stamp);

    /// <inheritdoc />
    public Task<string?> GetSecurityStampAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult<string?>(user.SecurityStamp);

    /// <inheritdoc />
    public Task<DateTimeOffset?> GetLockoutEndDateAsync(UserEntity user, CancellationToken cancellationToken) =>
        Task.FromResult(user.LockoutEndUtc is { } end ? new DateTimeOffset(end, TimeSpan.Zero) : (DateTimeOffset?)null);

    /// <inheritdoc />
    public Task SetLockoutEndDateAsync(UserEntity user, DateTimeOffset? lockoutEnd, CancellationToken cancellationToken) =>
        Set(() => user.LockoutEndUtc = lockoutEnd?.UtcDateTime);

    /// <inheritdoc />
    public Task<int> IncrementAccessFailedCountAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(++user.AccessFailedCount);

    /// <inheritdoc />
    public Task ResetAccessFailedCountAsync(UserEntity user, CancellationToken cancellationToken) => Set(() => user.AccessFailedCount = 0);

    /// <inheritdoc />
    public Task<int> GetAccessFailedCountAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(user.AccessFailedCount);

    /// <inheritdoc />
    public Task<bool> GetLockoutEnabledAsync(UserEntity user, CancellationToken cancellationToken) => Task.FromResult(true);

    /// <inheritdoc />
    public Task SetLockoutEnabledAsync(UserEntity user, bool enabled, CancellationToken cancellationToken) => Task.CompletedTask;

    /// <inheritdoc />
    public void Dispose()
    {
    }

    private static Task Set(Action set)
    {
        set();
        return Task.CompletedTask;
    }
}
