namespace Dashboard.Web.Tests.Support;

/// <summary>Waits for a condition instead of sleeping a fixed time: a slow 2-core machine delays a test rather than failing it.</summary>
public static class Eventually
{
    /// <summary>Checks <paramref name="condition"/> every 100 ms until it holds or <paramref name="timeout"/> (default 60 s) passed.</summary>
    /// <returns>Whether the condition held; the caller's assertion says what was expected.</returns>
    public static async Task<bool> HoldsAsync(Func<Task<bool>> condition, TimeSpan? timeout = null)
    {
        ArgumentNullException.ThrowIfNull(condition);
        var deadline = DateTime.UtcNow + (timeout ?? TimeSpan.FromSeconds(60));
        while (!await condition())
        {
            if (DateTime.UtcNow > deadline)
            {
                return false;
            }

            await Task.Delay(100);
        }

        return true;
    }

    /// <inheritdoc cref="HoldsAsync(Func{Task{bool}}, TimeSpan?)"/>
    public static Task<bool> HoldsAsync(Func<bool> condition, TimeSpan? timeout = null) =>
        HoldsAsync(() => Task.FromResult(condition()), timeout);
}
