namespace Acme.Broken;

public class Half
{
    public void Ok() { }

    public void Missing(int x {
    }
}
