using System.Globalization;
using System.Text;

namespace Dashboard.Service.Contracts.Scenarios;

/// <summary>
/// How text taken from a scenario document is shown in a refusal: on one line, as valid Unicode, and short. A field
/// name or value may hold anything a user (or a generator) typed: newlines, NUL, lone surrogates, 100,000 characters.
/// </summary>
public static class ScenarioText
{
    /// <summary>Longest value quoted in a message, in characters; longer ones are cut and end with <c>…</c>.</summary>
    public const int MaxQuoted = 80;

    /// <summary>Longest message, in characters.</summary>
    public const int MaxMessage = 600;

    /// <summary>
    /// <paramref name="value"/> as shown inside a message: control characters as <c>\uXXXX</c> escapes, unpaired
    /// surrogates as U+FFFD, at most <paramref name="max"/> characters; <c>null</c> for null.
    /// </summary>
    public static string Shown(string? value, int max = MaxQuoted)
    {
        if (value is null)
        {
            return "null";
        }

        var text = new StringBuilder(Math.Min(value.Length, max) + 8);
        for (var i = 0; i < value.Length; i++)
        {
            if (text.Length >= max)
            {
                return text.Append('…').ToString();
            }

            var c = value[i];
            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                text.Append(c).Append(value[++i]);
            }
            else if (char.IsSurrogate(c))
            {
                text.Append('\uFFFD');
            }
            else if (char.IsControl(c) || c is '\u2028' or '\u2029' or '\u0085')
            {
                text.Append("\\u").Append(((int)c).ToString("x4", CultureInfo.InvariantCulture));
            }
            else
            {
                text.Append(c);
            }
        }

        return text.ToString();
    }

    /// <summary>The index of the first unpaired surrogate in <paramref name="value"/>, or -1 when it is valid UTF-16.</summary>
    public static int IndexOfUnpairedSurrogate(string value)
    {
        ArgumentNullException.ThrowIfNull(value);
        for (var i = 0; i < value.Length; i++)
        {
            var c = value[i];
            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(c))
            {
                return i;
            }
        }

        return -1;
    }

    /// <summary>True when <paramref name="value"/> has a control character (U+0000..U+001F, U+007F..U+009F) or a line separator.</summary>
    public static bool HasControlCharacter(string value) =>
        value.Any(c => char.IsControl(c) || c is '\u2028' or '\u2029');
}
