namespace Lib
{
    public partial class Outer
    {
        public int Use()
        {
            var inner = new Inner();
            return inner.Value + Helper();
        }
    }
}
