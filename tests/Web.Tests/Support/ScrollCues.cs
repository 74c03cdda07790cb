using Microsoft.Playwright;

namespace Dashboard.Web.Tests.Support;

/// <summary>
/// Reads the horizontal-scroll cues of a page (src/Web/Components/Shared/ScrollCue.razor): for each results table, the
/// headers lying beyond its scroll box and whether its "scroll →" hint is shown.
/// </summary>
public static class ScrollCues
{
    /// <summary>One table: its cue's data-testid, whether the hint is visible, and the text of every header outside the box.</summary>
    public sealed record Cue(string Id, bool HintShown, IReadOnlyList<string> HeadersOutside);

    /// <summary>Every cue on <paramref name="page"/> (empty when there is none).</summary>
    public static async Task<IReadOnlyList<Cue>> ReadAsync(IPage page)
    {
        ArgumentNullException.ThrowIfNull(page);
        var rows = await page.EvaluateAsync<string[]>(
            """
            () => [...document.querySelectorAll('.scroll-cue')].map(cue => {
                const box = cue.querySelector('.table-scroll, .mud-table-container');
                const r = box.getBoundingClientRect();
                const outside = [...box.querySelectorAll('th')]
                    .filter(th => { const t = th.getBoundingClientRect(); return t.width > 0 && (t.right > r.right + 1 || t.left < r.left - 1); })
                    .map(th => th.innerText.trim().replace(/[|\n]/g, ' '));
                const hint = cue.querySelector('.scroll-hint').checkVisibility({ visibilityProperty: true });
                return [cue.dataset.testid, hint, ...outside].join('|');
            })
            """);
        return rows.Select(row => row.Split('|')).Select(f => new Cue(f[0], f[1] == "true", f[2..])).ToList();
    }

    /// <summary>Asserts that every table on the page either shows all its headers or shows its hint; returns the cues read.</summary>
    public static async Task<IReadOnlyList<Cue>> AssertEveryHeaderVisibleOrCuedAsync(IPage page)
    {
        var cues = await ReadAsync(page);
        foreach (var cue in cues)
        {
            Assert.True(cue.HeadersOutside.Count == 0 || cue.HintShown,
                $"{cue.Id}: headers beyond the box's edge ({string.Join(", ", cue.HeadersOutside)}) and no scroll cue");
        }

        return cues;
    }
}
