using Acme.Shop.Services;

class Program
{
    static void Main(string[] args)
    {
        using var service = new OrderService();
        int count = 0;
        for (int i = 0; i < args.Length; i++)
        {
            try
            {
                count += service.Find(args[i]) != null ? 1 : 0;
            }
            catch (System.Exception error) when (error.Message.Length > 0)
            {
                Report(error);
            }
        }
        void Report(System.Exception e) => System.Console.Error.WriteLine(e.Message);
    }
}
