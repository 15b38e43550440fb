namespace Acme.Shop.Models;

public partial class Order
{
    public Order Add(Line line)
    {
        if (lines.Count >= MaxLines)
        {
            throw new InvalidOperationException("full");
        }
        lines.Add(line);
        OnChanged("added");
        return this;
    }

    public decimal Total(decimal discount, bool member)
    {
        decimal total = 0;
        foreach (var line in lines)
        {
            if (line.Quantity > 10 && member)
            {
                total += line.Quantity * 0.9m;
            }
            else if (line.Quantity > 0)
            {
                total += line.Quantity;
            }
            else
            {
                continue;
            }
        }
        return member ? total - discount : total;
    }
}

public readonly record struct Money(decimal Amount, string Currency);
