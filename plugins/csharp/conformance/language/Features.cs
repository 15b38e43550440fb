namespace Acme.Features
{
    using System;
    using System.Linq;

    public interface IShape
    {
        double Area();
        string Name => "shape";
    }

    public static class Geometry
    {
        public static async Task<T> Largest<T>(IEnumerable<T> items) where T : IShape
        {
            var sorted = from item in items
                         let area = item.Area()
                         orderby area descending
                         select item;
            await Task.Yield();
            return sorted.First();
        }

        public static string Describe(object value) => value switch
        {
            Circle { Radius: > 10 } big => $"big {big.Radius}",
            Circle c => "circle",
            null => "nothing",
            _ => "other",
        };

        public static int Classify(int code)
        {
            switch (code)
            {
                case 1:
                case 2:
                    return 1;
                case 3 when code > 0:
                    return 2;
                default:
                    return 0;
            }
        }
    }

    public sealed record Circle(double Radius) : Shape(nameof(Circle)), IShape
    {
        double IShape.Area() => Math.PI * Radius * Radius;

        public static implicit operator double(Circle circle) => circle.Radius;

        [System.Obsolete("use Radius")]
        protected internal double Diameter => 2 * Radius;
    }

    public abstract record Shape(string Label);

    class Registry<TKey, TValue> : Dictionary<TKey, TValue> where TKey : notnull
    {
        public TValue this[TKey key, int fallback] => TryGetValue(key, out var found) ? found : default;

        public void Each(Action<TKey> action)
        {
            foreach (var (key, _) in this)
            {
                action?.Invoke(key);
            }
            Keys.ToList().ForEach(k => action(k));
        }
    }
}
