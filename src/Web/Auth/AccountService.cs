using Dashboard.Data.Accounts;
using Microsoft.AspNetCore.Identity;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;

namespace Dashboard.Web.Auth;

/// <summary>
/// Accounts, API tokens, setup links and the audit log on <see cref="AccountsDbContext"/>; the one place the pages, the
/// sign-in endpoints and the command line (<see cref="AccountCommands"/>) change them. Secrets are returned once and
/// stored as <see cref="Secrets.Hash"/>.
/// </summary>
public sealed class AccountService(
    IDbContextFactory<AccountsDbContext> contexts, UserManager<UserEntity> users, TimeProvider clock, IOptions<AuthOptions> options)
{
    /// <summary>The actor recorded for what the command line does.</summary>
    public const string CommandLine = "command line";

    /// <summary>
    /// Creates an API token with <paramref name="role"/> and returns its secret (<c>dbt_</c> + 43 characters), which is not
    /// stored and cannot be shown again.
    /// </summary>
    /// <param name="name">A label; empty: "token".</param>
    /// <param name="role">Viewer, Operator or Admin (any case).</param>
    /// <param name="lifetime">How long it works; null: until revoked.</param>
    /// <param name="createdBy">Who creates it (audit log).</param>
    /// <exception cref="ArgumentException"><paramref name="role"/> is not a role, or <paramref name="lifetime"/> is not positive.</exception>
    public async Task<string> CreateTokenAsync(string? name, string role, TimeSpan? lifetime, string createdBy, CancellationToken cancellationToken = default)
    {
        var canonical = DashboardRoles.Parse(role) ?? throw new ArgumentException($"unknown role '{role}': Viewer, Operator or Admin", nameof(role));
        if (lifetime is { } l && l <= TimeSpan.Zero)
        {
            throw new ArgumentException("the lifetime must be positive", nameof(lifetime));
        }

        var secret = Secrets.New(Secrets.TokenPrefix);
        var now = clock.GetUtcNow().UtcDateTime;
        var token = new ApiTokenEntity
        {
            Name = string.IsNullOrWhiteSpace(name) ? "token" : name.Trim(),
            Role = canonical,
            Hash = Secrets.Hash(secret),
            CreatedBy = createdBy,
            CreatedUtc = now,
            ExpiresUtc = lifetime is { } life ? now + life : null,
        };
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        db.ApiTokens.Add(token);
        db.AuditEvents.Add(Audit(createdBy, "token created", $"{token.Name} ({canonical})"));
        await db.SaveChangesAsync(cancellationToken);
        return secret;
    }

    /// <summary>The token whose secret is <paramref name="secret"/> when it is neither revoked nor expired; else null.</summary>
    public async Task<ApiTokenEntity?> FindActiveTokenAsync(string secret, CancellationToken cancellationToken = default)
    {
        var hash = Secrets.Hash(secret);
        var now = clock.GetUtcNow().UtcDateTime;
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var token = await db.ApiTokens.AsNoTracking().SingleOrDefaultAsync(t => t.Hash == hash, cancellationToken);
        return token is { RevokedUtc: null } && (token.ExpiresUtc is null || token.ExpiresUtc > now) ? token : null;
    }

    /// <summary>Every token, newest first (hashes included; never the secrets, which are not stored).</summary>
    public async Task<IReadOnlyList<ApiTokenEntity>> ListTokensAsync(CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.ApiTokens.AsNoTracking().OrderByDescending(t => t.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Revokes token <paramref name="id"/>; false when there is no such token or it was revoked already.</summary>
    public async Task<bool> RevokeTokenAsync(int id, string by, CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var token = await db.ApiTokens.SingleOrDefaultAsync(t => t.Id == id, cancellationToken);
        if (token is null || token.RevokedUtc is not null)
        {
            return false;
        }

        token.RevokedUtc = clock.GetUtcNow().UtcDateTime;
        db.AuditEvents.Add(Audit(by, "token revoked", $"{token.Name} ({token.Role})"));
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>True when some account is an Admin with a password.</summary>
    public async Task<bool> AnyAdminAsync(CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Users.AnyAsync(u => u.Role == DashboardRoles.Admin && u.PasswordHash != null, cancellationToken);
    }

    /// <summary>
    /// A one-time link's token that sets the password of <paramref name="userName"/> (created with <paramref name="role"/> if
    /// it does not exist; null: the person chooses the name), valid for <see cref="AuthOptions.SetupLinkLifetime"/>.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="role"/> is not a role.</exception>
    public async Task<string> CreateSetupLinkAsync(string? userName, string role, string createdBy, CancellationToken cancellationToken = default)
    {
        var canonical = DashboardRoles.Parse(role) ?? throw new ArgumentException($"unknown role '{role}'", nameof(role));
        var secret = Secrets.New();
        var now = clock.GetUtcNow().UtcDateTime;
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        db.SetupLinks.Add(new SetupLinkEntity
        {
            Hash = Secrets.Hash(secret),
            UserName = string.IsNullOrWhiteSpace(userName) ? null : userName.Trim(),
            Role = canonical,
            CreatedUtc = now,
            ExpiresUtc = now + options.Value.SetupLinkLifetime,
        });
        db.AuditEvents.Add(Audit(createdBy, "setup link created", userName ?? "(first admin)"));
        await db.SaveChangesAsync(cancellationToken);
        return secret;
    }

    /// <summary>The setup link of <paramref name="secret"/> when it is unused and unexpired; else null.</summary>
    public async Task<SetupLinkEntity?> FindSetupLinkAsync(string? secret, CancellationToken cancellationToken = default)
    {
        if (string.IsNullOrEmpty(secret))
        {
            return null;
        }

        var hash = Secrets.Hash(secret);
        var now = clock.GetUtcNow().UtcDateTime;
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var link = await db.SetupLinks.AsNoTracking().SingleOrDefaultAsync(l => l.Hash == hash, cancellationToken);
        return link is { UsedUtc: null } && link.ExpiresUtc > now ? link : null;
    }

    /// <summary>
    /// Uses the setup link of <paramref name="secret"/>: creates the account (or finds the one it names), sets
    /// <paramref name="password"/>, unlocks it and marks the link used. Returns the account, or the errors (link used or
    /// expired, password too weak, name taken) and no change.
    /// </summary>
    public async Task<(UserEntity? User, IReadOnlyList<string> Errors)> UseSetupLinkAsync(
        string? secret, string? userName, string? password, CancellationToken cancellationToken = default)
    {
        var link = await FindSetupLinkAsync(secret, cancellationToken);
        if (link is null)
        {
            return (null, ["This setup link was used already or has expired: ask an admin (or run Dashboard.Web admin reset) for a new one."]);
        }

        var name = (link.UserName ?? userName)?.Trim();
        if (string.IsNullOrEmpty(name) || string.IsNullOrEmpty(password))
        {
            return (null, ["Give a user name and a password."]);
        }

        var errors = new List<string>();
        foreach (var validator in users.PasswordValidators)
        {
            var check = await validator.ValidateAsync(users, new UserEntity { UserName = name }, password);
            errors.AddRange(check.Errors.Select(e => e.Description));
        }

        if (errors.Count > 0)
        {
            return (null, errors);
        }

        var user = await users.FindByNameAsync(name);
        if (user is not null && link.UserName is null)
        {
            return (null, [$"User '{name}' exists already: choose another name."]);
        }

        // A link made before the account was disabled must not let it back in, nor give a single sign-on account a password.
        if (user is not null && IsDisabled(user))
        {
            return (null, [$"The account '{name}' is disabled: an admin must enable it on the Users page before this link can be used."]);
        }

        if (user?.ExternalLogin is not null)
        {
            return (null, [$"The account '{name}' signs in with single sign-on: it has no password to set."]);
        }

        // Claim the link first (one use even when two requests race), then set the password.
        await using (var db = await contexts.CreateDbContextAsync(cancellationToken))
        {
            var now = clock.GetUtcNow().UtcDateTime;
            var claimed = await db.SetupLinks.Where(l => l.Id == link.Id && l.UsedUtc == null)
                .ExecuteUpdateAsync(s => s.SetProperty(l => l.UsedUtc, now), cancellationToken);
            if (claimed == 0)
            {
                return (null, ["This setup link was used already."]);
            }
        }

        IdentityResult result;
        if (user is null)
        {
            user = new UserEntity { UserName = name, Role = link.Role, CreatedUtc = clock.GetUtcNow().UtcDateTime };
            result = await users.CreateAsync(user, password);
        }
        else
        {
            if (user.PasswordHash is not null)
            {
                await users.RemovePasswordAsync(user);
            }

            user.LockoutEndUtc = null;
            user.AccessFailedCount = 0;
            result = await users.AddPasswordAsync(user, password);
        }

        if (!result.Succeeded)
        {
            return (null, result.Errors.Select(e => e.Description).ToList());
        }

        await AuditAsync(name, "password set with a setup link", $"{name} ({user.Role})", cancellationToken);
        return (user, []);
    }

    /// <summary>
    /// Signs in the OpenID Connect identity <paramref name="externalLogin"/> (<c>issuer|subject</c>; docs/security.md,
    /// "Single sign-on"): finds its account, or creates one named <paramref name="userName"/> (or <c>NAME-sso</c>,
    /// <c>NAME-sso2</c>, … when a local account has that name: a provider never takes over a local account), and sets its
    /// role to <paramref name="role"/> (the provider decides; a change ends the account's other sessions). Returns the
    /// account, or why it may not sign in (disabled on the Users page) and no change.
    /// </summary>
    /// <exception cref="ArgumentException"><paramref name="role"/> is not a role, or a name or the login is empty.</exception>
    public async Task<(UserEntity? User, string? Refusal)> SignInExternalAsync(string externalLogin, string userName, string role, CancellationToken cancellationToken = default)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(externalLogin);
        ArgumentException.ThrowIfNullOrWhiteSpace(userName);
        var canonical = DashboardRoles.Parse(role) ?? throw new ArgumentException($"unknown role '{role}'", nameof(role));
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var existing = await db.Users.AsNoTracking().SingleOrDefaultAsync(u => u.ExternalLogin == externalLogin, cancellationToken);
        var user = existing is null ? null : await users.FindByIdAsync(existing.Id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (user is null)
        {
            var name = userName.Trim();
            for (var i = 1; await users.FindByNameAsync(name) is not null; i++)
            {
                name = $"{userName.Trim()}-sso{(i == 1 ? "" : i.ToString(System.Globalization.CultureInfo.InvariantCulture))}";
            }

            user = new UserEntity { UserName = name, Role = canonical, ExternalLogin = externalLogin, CreatedUtc = clock.GetUtcNow().UtcDateTime };
            var created = await users.CreateAsync(user);
            if (!created.Succeeded)
            {
                throw new InvalidOperationException($"single sign-on: account '{name}' could not be created: {string.Join("; ", created.Errors.Select(e => e.Description))}");
            }

            await AuditAsync(name, "account created by single sign-on", $"{name} ({canonical}), {externalLogin}", cancellationToken);
            return (user, null);
        }

        if (IsDisabled(user))
        {
            return (null, $"The account '{user.UserName}' is disabled: ask an admin.");
        }

        if (user.Role != canonical)
        {
            await AuditAsync(user.UserName, "account changed", $"{user.UserName}: role {user.Role} → {canonical} (single sign-on)", cancellationToken);
            user.Role = canonical;
            user.SecurityStamp = Guid.NewGuid().ToString("N");
            await users.UpdateAsync(user);
        }

        return (user, null);
    }

    /// <summary>The lockout end that marks a disabled account (Identity's way: locked out for ever).</summary>
    public static readonly DateTime DisabledUntil = new(9999, 12, 31, 0, 0, 0, DateTimeKind.Utc);

    /// <summary>True when <paramref name="user"/> was disabled on the Users page (not a temporary lockout).</summary>
    public static bool IsDisabled(UserEntity user)
    {
        ArgumentNullException.ThrowIfNull(user);
        return user.LockoutEndUtc is { } end && end >= DisabledUntil;
    }

    /// <summary>An account as the Users page and <c>GET /api/users</c> show it.</summary>
    /// <param name="Id">Its id.</param>
    /// <param name="UserName">The name it signs in with.</param>
    /// <param name="Role">Viewer, Operator or Admin.</param>
    /// <param name="Disabled">True when disabled (it cannot sign in; its sessions ended).</param>
    /// <param name="HasPassword">False until its setup link is used.</param>
    /// <param name="CreatedUtc">When it was created (UTC).</param>
    /// <param name="LastSignInUtc">Its last sign-in (UTC, from the audit log), or null when never.</param>
    public sealed record UserSummary(int Id, string UserName, string Role, bool Disabled, bool HasPassword, DateTime CreatedUtc, DateTime? LastSignInUtc);

    /// <summary>Every account by name, with its last sign-in.</summary>
    public async Task<IReadOnlyList<UserSummary>> ListUsersAsync(CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var accounts = await db.Users.AsNoTracking().OrderBy(u => u.NormalizedUserName).ToListAsync(cancellationToken);
        var signIns = await db.AuditEvents.AsNoTracking().Where(a => a.Action == SignedIn)
            .GroupBy(a => a.Actor).Select(g => new { Actor = g.Key, Last = g.Max(a => a.TimeUtc) }).ToListAsync(cancellationToken);
        var last = signIns.ToDictionary(s => s.Actor, s => s.Last, StringComparer.Ordinal);
        return accounts.Select(u => new UserSummary(u.Id, u.UserName, u.Role, IsDisabled(u), u.PasswordHash is not null, u.CreatedUtc,
            last.TryGetValue(u.UserName, out var at) ? at : null)).ToList();
    }

    /// <summary>The audit log's action for a successful sign-in (the Users page's "last sign-in" reads it).</summary>
    public const string SignedIn = "signed in";

    /// <summary>
    /// Changes account <paramref name="id"/>: its role (when <paramref name="role"/> is given) and whether it is disabled
    /// (when <paramref name="disabled"/> is given; disabling also changes its security stamp, so its sessions end).
    /// Returns null on success, else why not (no such account, unknown role, the last enabled Admin).
    /// </summary>
    public async Task<string?> UpdateUserAsync(int id, string? role, bool? disabled, string by, CancellationToken cancellationToken = default)
    {
        var user = await users.FindByIdAsync(id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (user is null)
        {
            return $"no account {id}";
        }

        var canonical = role is null ? user.Role : DashboardRoles.Parse(role);
        if (canonical is null)
        {
            return $"role: unknown role '{role}': Viewer, Operator or Admin";
        }

        var disable = disabled ?? IsDisabled(user);
        if (user.Role == DashboardRoles.Admin && !IsDisabled(user) && (canonical != DashboardRoles.Admin || disable) && await EnabledAdminsAsync(cancellationToken) <= 1)
        {
            return $"'{user.UserName}' is the last enabled Admin: make another Admin first";
        }

        var changes = new List<string>();
        if (canonical != user.Role)
        {
            changes.Add($"role {user.Role} → {canonical}");
            user.Role = canonical;
        }

        if (disable != IsDisabled(user))
        {
            changes.Add(disable ? "disabled" : "enabled");
            user.LockoutEndUtc = disable ? DisabledUntil : null;
            user.AccessFailedCount = 0;
            user.SecurityStamp = Guid.NewGuid().ToString("N");
        }

        if (changes.Count == 0)
        {
            return null;
        }

        await users.UpdateAsync(user);
        await AuditAsync(by, "account changed", $"{user.UserName}: {string.Join(", ", changes)}", cancellationToken);
        return null;
    }

    /// <summary>Deletes account <paramref name="id"/> (its sessions end at their next request). Returns null on success, else why not.</summary>
    public async Task<string?> DeleteUserAsync(int id, string by, CancellationToken cancellationToken = default)
    {
        var user = await users.FindByIdAsync(id.ToString(System.Globalization.CultureInfo.InvariantCulture));
        if (user is null)
        {
            return $"no account {id}";
        }

        if (user.Role == DashboardRoles.Admin && !IsDisabled(user) && await EnabledAdminsAsync(cancellationToken) <= 1)
        {
            return $"'{user.UserName}' is the last enabled Admin: make another Admin first";
        }

        await users.DeleteAsync(user);
        await AuditAsync(by, "account deleted", $"{user.UserName} ({user.Role})", cancellationToken);
        return null;
    }

    private async Task<int> EnabledAdminsAsync(CancellationToken cancellationToken)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.Users.CountAsync(u => u.Role == DashboardRoles.Admin && (u.LockoutEndUtc == null || u.LockoutEndUtc < DisabledUntil), cancellationToken);
    }

    /// <summary>Makes a read-only share link of <paramref name="runs"/> (one: its run page; several: their compare view); returns it and its secret, which is not stored.</summary>
    public async Task<(ShareLinkEntity Link, string Secret)> CreateShareAsync(IReadOnlyList<int> runs, string by, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(runs);
        var secret = Secrets.New();
        var link = new ShareLinkEntity
        {
            Hash = Secrets.Hash(secret),
            RunIds = string.Join(',', runs),
            CreatedBy = by,
            CreatedUtc = clock.GetUtcNow().UtcDateTime,
        };
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        db.ShareLinks.Add(link);
        db.AuditEvents.Add(Audit(by, "share link created", "runs " + link.RunIds));
        await db.SaveChangesAsync(cancellationToken);
        return (link, secret);
    }

    /// <summary>Every share link, newest first.</summary>
    public async Task<IReadOnlyList<ShareLinkEntity>> ListSharesAsync(CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.ShareLinks.AsNoTracking().OrderByDescending(s => s.Id).ToListAsync(cancellationToken);
    }

    /// <summary>Revokes share link <paramref name="id"/>; false when there is none or it was revoked already.</summary>
    public async Task<bool> RevokeShareAsync(int id, string by, CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        var link = await db.ShareLinks.SingleOrDefaultAsync(s => s.Id == id, cancellationToken);
        if (link is null || link.RevokedUtc is not null)
        {
            return false;
        }

        link.RevokedUtc = clock.GetUtcNow().UtcDateTime;
        db.AuditEvents.Add(Audit(by, "share link revoked", "runs " + link.RunIds));
        await db.SaveChangesAsync(cancellationToken);
        return true;
    }

    /// <summary>The share link of <paramref name="secret"/> when it is not revoked; else null.</summary>
    public async Task<ShareLinkEntity?> FindActiveShareAsync(string secret, CancellationToken cancellationToken = default)
    {
        var hash = Secrets.Hash(secret ?? "");
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.ShareLinks.AsNoTracking().SingleOrDefaultAsync(s => s.Hash == hash && s.RevokedUtc == null, cancellationToken);
    }

    /// <summary>True when share link <paramref name="id"/> exists and is not revoked.</summary>
    public async Task<bool> IsShareActiveAsync(int id, CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.ShareLinks.AnyAsync(s => s.Id == id && s.RevokedUtc == null, cancellationToken);
    }

    /// <summary>Writes one line of the audit log.</summary>
    public async Task AuditAsync(string actor, string action, string target, CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        db.AuditEvents.Add(Audit(actor, action, target));
        await db.SaveChangesAsync(cancellationToken);
    }

    /// <summary>The newest <paramref name="count"/> lines of the audit log, newest first.</summary>
    public async Task<IReadOnlyList<AuditEventEntity>> ListAuditAsync(int count, CancellationToken cancellationToken = default)
    {
        await using var db = await contexts.CreateDbContextAsync(cancellationToken);
        return await db.AuditEvents.AsNoTracking().OrderByDescending(a => a.Id).Take(count).ToListAsync(cancellationToken);
    }

    private AuditEventEntity Audit(string actor, string action, string target) =>
        new() { TimeUtc = clock.GetUtcNow().UtcDateTime, Actor = actor, Action = action, Target = target };
}
