namespace Lib
{
    public partial class Outer
    {
        private sealed class Inner
        {
            public int Value;
        }

        private static int Helper() => 1;
    }
}
