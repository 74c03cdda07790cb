using System.Collections;

namespace Dashboard.Service.Contracts.Payloads;

/// <summary>
/// Value equality of the payload types, cheap enough for the load generator's hot path: primitives and strings
/// by value, arrays element by element, a plain <see cref="object"/> equal to any other plain object (what an echo
/// of <c>System.Object</c> can return), data contracts by their record equality. Same answers as
/// <see cref="DataContractEquality"/> for every payload of the catalogue, without serializing.
/// </summary>
public static class ValueEquality
{
    /// <summary>True when <paramref name="expected"/> and <paramref name="actual"/> are equal values of the same runtime type.</summary>
    public static bool AreEqual(object? expected, object? actual)
    {
        if (expected is null || actual is null)
        {
            return expected is null && actual is null;
        }

        var type = expected.GetType();
        if (type != actual.GetType())
        {
            return false;
        }

        return expected switch
        {
            byte[] bytes => bytes.AsSpan().SequenceEqual((byte[])actual),
            int[] ints => ints.AsSpan().SequenceEqual((int[])actual),
            double[] doubles => doubles.AsSpan().SequenceEqual((double[])actual),
            Array array => ArraysEqual(array, (Array)actual),
            _ when type == typeof(object) => true,
            _ => expected.Equals(actual),
        };
    }

    private static bool ArraysEqual(Array expected, Array actual)
    {
        if (expected.Length != actual.Length)
        {
            return false;
        }

        IList left = expected, right = actual;
        for (var i = 0; i < left.Count; i++)
        {
            if (!AreEqual(left[i], right[i]))
            {
                return false;
            }
        }

        return true;
    }
}
