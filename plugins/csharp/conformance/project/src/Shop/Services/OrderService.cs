global using System.Linq;
using System;
using static System.Math;
using Models = Acme.Shop.Models;
using OrderList = System.Collections.Generic.List<Acme.Shop.Models.Order>;
using Acme.Shop.Models;

namespace Acme.Shop.Services;

public interface IOrderService : IDisposable
{
    Order Find(string id);
    int Count { get; }
}

internal struct Cursor : IEquatable<Cursor>
{
    public int Position;
    public bool Equals(Cursor other) => Position == other.Position;
}

public class OrderService : ServiceBase, IOrderService
{
    private readonly OrderList orders = new OrderList();

    public int Count => orders.Count;

    public Order Find(string id)
    {
        var found = orders.FirstOrDefault(o => o.Id == id);
        Console.WriteLine(Max(1, 2));
        if (found is Order order && order.Customer != null)
        {
            return order;
        }
        return Models.Order.Empty ?? found;
    }

    public void Dispose() { }
}

public class ServiceBase { }
