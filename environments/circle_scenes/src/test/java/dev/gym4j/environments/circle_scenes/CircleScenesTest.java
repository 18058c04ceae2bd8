package dev.gym4j.environments.circle_scenes;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.image.BufferedImage;
import java.util.List;

import dev.gym4j.environments.circle_scenes.CircleScenes.Circle;
import dev.gym4j.environments.circle_scenes.CircleScenes.Scene;
import dev.gym4j.text.PythonRandom;
import org.junit.jupiter.api.Test;

/** The shared placement and drawing (the seeded rows against NeMo Gym's are in circle_click's and circle_count's tests). */
class CircleScenesTest {
  @Test
  void circlesStayInsideTheMarginAndApartAndTheSameSeedPlacesThemAlike() {
    List<String> names = List.of("red", "blue", "green", "red", "cyan", "pink", "blue", "orange");
    Scene scene = CircleScenes.scene(400, 40, names, "red", new PythonRandom(7));
    assertThat(scene.circles()).isNotEmpty().hasSizeLessThanOrEqualTo(names.size());
    for (int i = 0; i < scene.circles().size(); i++) {
      Circle a = scene.circles().get(i);
      assertThat(a.color()).isEqualTo(names.get(i));
      assertThat(a.x()).isBetween(50, 350);
      assertThat(a.y()).isBetween(50, 350);
      for (Circle b : scene.circles().subList(i + 1, scene.circles().size())) {
        assertThat(Math.hypot(a.x() - b.x(), a.y() - b.y())).isGreaterThan(2 * 40 + 15);
      }
    }
    assertThat(CircleScenes.scene(400, 40, names, "red", new PythonRandom(7))).usingRecursiveComparison()
        .isEqualTo(scene);
  }

  @Test
  void eachCircleIsDrawnInItsColourOnWhite() {
    Scene scene = CircleScenes.scene(300, 30, List.of("purple", "yellow"), "yellow", new PythonRandom(1));
    BufferedImage image = CircleScenes.draw(scene);
    assertThat(image.getRGB(0, 0) & 0xFFFFFF).isEqualTo(0xFFFFFF);
    for (Circle c : scene.circles()) {
      assertThat(image.getRGB(c.x(), c.y()) & 0xFFFFFF).isEqualTo(CircleScenes.COLORS.get(c.color()).getRGB() & 0xFFFFFF);
      assertThat(image.getRGB(c.x() + c.radius(), c.y()) & 0xFFFFFF).as("PIL's box includes its right edge")
          .isEqualTo(CircleScenes.COLORS.get(c.color()).getRGB() & 0xFFFFFF);
    }
    assertThat(CircleScenes.dataUrl(image)).startsWith("data:image/png;base64,iVBORw0KGgo");
  }
}
