using System;
using System.Collections.Generic;

namespace Acme.Shop.Models
{
    /// <summary>Called when an order changes.</summary>
    public delegate void OrderChanged(Order order, string reason);

    /// <summary>
    /// A customer's order.
    /// </summary>
    [Serializable]
    public partial class Order : Entity, IComparable<Order>
    {
        private readonly List<Line> lines = new List<Line>();
        public const int MaxLines = 100;
        internal int version, revision;

        public event OrderChanged Changed;

        public Order(string id) : base(id) { }

        ~Order() { }

        /// <summary>The order's lines.</summary>
        public IReadOnlyList<Line> Lines => lines;

        public string Customer { get; set; }

        public Line this[int index] => lines[index];

        public static Order operator +(Order order, Line line) => order.Add(line);

        public int CompareTo(Order other) => string.Compare(Id, other.Id);

        protected virtual void OnChanged(string reason) => Changed?.Invoke(this, reason);

        /// <summary>One line of an order.</summary>
        public record Line(string Sku, int Quantity);

        enum State { Open, Paid = 2, Shipped }
    }

    public abstract class Entity
    {
        protected Entity(string id) { Id = id; }

        public string Id { get; }
    }

    namespace Internal
    {
        sealed class Audit
        {
            void Record() { }
        }
    }
}
